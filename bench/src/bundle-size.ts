/**
 * Bundle size (minified, then gzip level 9 with zlib) of our verifier's entries next to each
 * peer's verify entry, all bundled the same way with esbuild: ESM, minified, tree-shaken,
 * platform `browser` where the code builds for it, `node` otherwise (the row says which).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Platform } from 'esbuild';
import { formatBytes, type SectionResult, table } from './report.js';

const here = dirname(fileURLToPath(import.meta.url));

interface Entry {
  label: string;
  code: string;
  platforms: Platform[];
}

async function bundle(code: string, platform: Platform): Promise<Uint8Array> {
  const result = await build({
    stdin: { contents: code, resolveDir: here, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform,
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.contents;
}

function ourEntries(): Entry[] {
  const require = createRequire(import.meta.url);
  const manifest = JSON.parse(
    readFileSync(require.resolve('@cspwatch/webhooks/package.json'), 'utf8'),
  );
  const entries: Entry[] = [
    {
      label: 'ours: `verifyWebhook` from `@cspwatch/webhooks` (Web entry)',
      code: "export { verifyWebhook } from '@cspwatch/webhooks';",
      platforms: ['browser'],
    },
    {
      label: 'ours: `verifyWebhookSignature` from `@cspwatch/webhooks` (Web entry)',
      code: "export { verifyWebhookSignature } from '@cspwatch/webhooks';",
      platforms: ['browser'],
    },
    {
      label: 'ours: `verifyWebhook` from `@cspwatch/webhooks` (node condition)',
      code: "export { verifyWebhook } from '@cspwatch/webhooks';",
      platforms: ['node'],
    },
    {
      label: 'ours: `verifyWebhookSync` from `@cspwatch/webhooks/node`',
      code: "export { verifyWebhookSync } from '@cspwatch/webhooks/node';",
      platforms: ['node'],
    },
  ];
  for (const subpath of Object.keys(manifest.exports)) {
    if (subpath === './package.json') continue;
    const specifier =
      subpath === '.' ? '@cspwatch/webhooks' : `@cspwatch/webhooks/${subpath.slice(2)}`;
    entries.push({
      label: `ours: whole entry \`${specifier}\``,
      code: `export * from '${specifier}';`,
      platforms: ['browser', 'node'],
    });
  }
  return entries;
}

const PEERS: Entry[] = [
  {
    label: 'stripe: `webhooks.constructEvent`',
    code: "import Stripe from 'stripe'; export const verify = (p: string, h: string, s: string) => Stripe.webhooks.constructEvent(p, h, s);",
    platforms: ['browser', 'node'],
  },
  {
    label: 'svix: `Webhook`',
    code: "export { Webhook } from 'svix';",
    platforms: ['browser', 'node'],
  },
  {
    label: 'standardwebhooks: `Webhook`',
    code: "export { Webhook } from 'standardwebhooks';",
    platforms: ['browser', 'node'],
  },
  {
    label: '@octokit/webhooks-methods: `verify`',
    code: "export { verify } from '@octokit/webhooks-methods';",
    platforms: ['browser', 'node'],
  },
];

/** Runs the bundle-size section. */
export async function runBundleSizeBench(): Promise<SectionResult> {
  const rows: string[][] = [];
  for (const entry of [...ourEntries(), ...PEERS]) {
    let row: string[] | undefined;
    const problems: string[] = [];
    for (const platform of entry.platforms) {
      try {
        const bytes = await bundle(entry.code, platform);
        row = [
          entry.label,
          platform,
          formatBytes(bytes.length),
          formatBytes(gzipSync(bytes, { level: 9 }).length),
        ];
        break;
      } catch (error) {
        problems.push(
          `${platform}: ${String((error as { errors?: { text: string }[] }).errors?.[0]?.text ?? error).slice(0, 120)}`,
        );
      }
    }
    rows.push(row ?? [entry.label, 'did not build', problems.join('; '), '-']);
  }
  const notes = [
    'esbuild: bundle, minify, ESM, es2022, tree-shaken from the named import; gzip: zlib level 9. Ours are bundled from the built `dist/` through the package `exports`.',
    '"Whole entry" rows bundle everything an entry exports (`export *`); the others only what one verify call needs.',
  ];
  const sizes = table(['entry', 'platform', 'min', 'min + gzip'], rows);
  return {
    title: 'Bundle size (min + gzip)',
    markdown: `${sizes}\n\n${notes.map((n) => `- ${n}`).join('\n')}`,
    targets: [],
    summary: `Bundle size (esbuild bundle + minify, ESM, tree-shaken; gzip level 9):\n\n${sizes}`,
  };
}
