/**
 * Builds the smoke suite for each kind of runtime with esbuild:
 * - `cli.mjs` for Node, Bun and Deno: only the suite's own files are bundled; every package
 *   import stays a bare specifier, so each runtime resolves the BUILT packages itself through
 *   their `exports` (the output sits in bench/, next to bench/node_modules);
 * - `worker.mjs` for workerd and `edge.js` for the edge runtime: everything bundled for the
 *   browser platform with that runtime's export conditions, as wrangler and Next.js do. No
 *   `node:` module can be bundled there, so one anywhere in the graph fails the build, and the
 *   metafile is checked for any that slipped through as external.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const smokeDir = join(here, 'smoke');
/** Output folder, git-ignored by bench/.gitignore. */
export const buildDir = join(here, '.build');

const common = { bundle: true, target: 'es2022', logLevel: 'silent', metafile: true };

/** Lists every `node:` (or bare Node built-in) import left in a bundle. */
function nodeImports(metafile) {
  const found = new Set();
  for (const output of Object.values(metafile.outputs)) {
    for (const item of output.imports ?? []) {
      if (item.external && /^node:|^(crypto|buffer|stream|http|https|util)$/.test(item.path)) {
        found.add(item.path);
      }
    }
  }
  return [...found];
}

async function bundleFor(name, options) {
  try {
    const result = await build({ ...common, ...options });
    const leaked = nodeImports(result.metafile);
    if (leaked.length > 0) return { ok: false, reason: `bundle imports ${leaked.join(', ')}` };
    // The files of @cspwatch/webhooks that went into the bundle, e.g. dist/index.js.
    const entry = Object.keys(result.metafile.inputs)
      .filter((input) => input.includes('packages/webhooks/dist/'))
      .map((input) => input.replace(/^.*packages\/webhooks\//, ''))
      .join(' + ');
    return { ok: true, file: options.outfile, entry };
  } catch (error) {
    const first = error.errors?.[0];
    const where = first?.location ? ` (${first.location.file})` : '';
    const text = first ? `${first.text}${where}` : String(error);
    return { ok: false, reason: `esbuild for ${name}: ${text}` };
  }
}

/** A Node ESM bundle of one smoke entry, its packages left external (resolved from node_modules). */
const nodeBundle = (name, entry, outfile) =>
  bundleFor(name, {
    entryPoints: [join(smokeDir, entry)],
    outfile: join(buildDir, outfile),
    platform: 'node',
    format: 'esm',
    packages: 'external',
  });

/**
 * Builds the smoke entries (`webhooks-cli.mjs`: webhooks only, for Node 18; `browser.js`:
 * the Web build for Chromium).
 * @returns {Promise<Record<'cli' | 'workerd' | 'edge' | 'webhooksCli' | 'browser', { ok: true; file: string } | { ok: false; reason: string }>>}
 */
export async function buildSmoke() {
  mkdirSync(buildDir, { recursive: true });
  const cli = await nodeBundle('node', 'cli.ts', 'cli.mjs');
  const workerd = await bundleFor('workerd', {
    entryPoints: [join(smokeDir, 'worker.ts')],
    outfile: join(buildDir, 'worker.mjs'),
    platform: 'browser',
    format: 'esm',
    conditions: ['workerd', 'worker', 'browser'],
  });
  const edge = await bundleFor('edge-runtime', {
    entryPoints: [join(smokeDir, 'edge.ts')],
    outfile: join(buildDir, 'edge.js'),
    platform: 'browser',
    format: 'iife',
    conditions: ['edge-light', 'worker', 'browser'],
  });
  const webhooksCli = await nodeBundle(
    'node (webhooks only)',
    'webhooks-cli.ts',
    'webhooks-cli.mjs',
  );
  const browser = await bundleFor('browser', {
    entryPoints: [join(smokeDir, 'browser.ts')],
    outfile: join(buildDir, 'browser.js'),
    platform: 'browser',
    format: 'iife',
    conditions: ['browser'],
  });
  return { cli, workerd, edge, webhooksCli, browser };
}
