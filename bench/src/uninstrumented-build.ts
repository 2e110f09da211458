/**
 * Two builds of a package from the same source, made the same way, for the zero-cost-when-off
 * rows: one as is, and one with its tracing module (`src/telemetry/tracing.ts`) swapped for a
 * no-op stub that exports the same names. esbuild bundles the package's own source (and any
 * workspace package listed in `inline`, stubbed alike); every other import stays external,
 * pointed at the very file the installed build would load, so both builds share their
 * dependencies. Both are written under the package's `node_modules/.cache/`, so the tracing
 * module finds `@opentelemetry/api` from there as the package's own build does.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const packagesDir = resolve(here, '../../packages');
/** The module every instrumented package keeps its OpenTelemetry calls in. */
const TRACING_MODULE = join('src', 'telemetry', 'tracing.ts');

/** A workspace package bundled from its source, its tracing module replaced by `stub`. */
export interface StubbedPackage {
  /** Its npm name, e.g. `@cspwatch/webhook-sender`. */
  readonly name: string;
  /** Its folder, e.g. `packages/webhook-sender` (absolute, or relative to the repository). */
  readonly packageDir: string;
  /** Its source entry, relative to `packageDir`, e.g. `src/index.ts`. */
  readonly entry: string;
  /** The stub module (absolute path) that replaces `src/telemetry/tracing.ts`. */
  readonly stub: string;
}

/** What {@link buildUninstrumented} builds. */
export interface UninstrumentedBuildOptions extends StubbedPackage {
  /** Other workspace packages it imports, bundled from source with their tracing stubbed too. */
  readonly inline?: readonly StubbedPackage[];
}

const absolute = (dir: string) => resolve(here, '../..', dir);

/**
 * Bundles the listed packages from source (their tracing module swapped for its stub when
 * `stubbed`); keeps every other package external.
 */
function fromSource(packages: readonly StubbedPackage[], stubbed: boolean): Plugin {
  const stubs = new Map(
    stubbed ? packages.map((p) => [join(absolute(p.packageDir), TRACING_MODULE), p.stub]) : [],
  );
  const entries = new Map(packages.map((p) => [p.name, join(absolute(p.packageDir), p.entry)]));
  return {
    name: 'from-source',
    setup(esbuild) {
      esbuild.onResolve({ filter: /^[^./]/ }, async (args) => {
        const entry = entries.get(args.path);
        if (entry) return { path: entry };
        // The private packages are bundled from source by every package's own build.
        const privatePackage = /^@cspwatch\/(contract|internal)$/.exec(args.path)?.[1];
        if (privatePackage) return { path: join(packagesDir, privatePackage, 'src', 'index.ts') };
        if (args.path.startsWith('node:') || args.pluginData === 'resolving') return undefined;
        const found = await esbuild.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: 'resolving',
        });
        return found.errors.length > 0 ? undefined : { path: found.path, external: true };
      });
      esbuild.onLoad({ filter: /tracing\.ts$/ }, (args) => {
        const stub = stubs.get(args.path);
        if (!stub) return undefined;
        return { contents: readFileSync(stub, 'utf8'), loader: 'ts', resolveDir: dirname(stub) };
      });
    },
  };
}

/**
 * Builds `entry` of `packageDir` as one ESM file (and the packages of `inline` bundled the same
 * way), with the tracing stubbed out unless `instrumented`; resolves with the file's absolute
 * path, ready for `import()`.
 */
export async function buildUninstrumented(
  options: UninstrumentedBuildOptions,
  instrumented = false,
): Promise<string> {
  const base = options.name.replace(/^@/, '').replace(/\//g, '-');
  const name = instrumented ? base : `${base}-uninstrumented`;
  const cache = join(absolute(options.packageDir), 'node_modules', '.cache', 'bench-builds');
  const outfile = join(cache, `${name}.mjs`);
  mkdirSync(dirname(outfile), { recursive: true });
  const packages = [options, ...(options.inline ?? [])];
  await build({
    entryPoints: [join(absolute(options.packageDir), options.entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    logLevel: 'error',
    plugins: [fromSource(packages, !instrumented)],
  });
  return outfile;
}

const stubOf = (name: string) => join(here, 'uninstrumented', `${name}-tracing.ts`);

/** `@cspwatch/client` (`createCspwatchClient`…). */
export const CLIENT_PACKAGE: StubbedPackage = {
  name: '@cspwatch/client',
  packageDir: 'packages/client',
  entry: 'src/index.ts',
  stub: stubOf('client'),
};

/** `@cspwatch/webhook-sender` (`createWebhookSender`…). */
export const SENDER_PACKAGE: StubbedPackage = {
  name: '@cspwatch/webhook-sender',
  packageDir: 'packages/webhook-sender',
  entry: 'src/index.ts',
  stub: stubOf('webhook-sender'),
};

/** `@cspwatch/redis/queue`, with the sender it delivers through uninstrumented too. */
export const QUEUE_PACKAGE: UninstrumentedBuildOptions = {
  name: '@cspwatch/redis/queue',
  packageDir: 'packages/redis',
  entry: 'src/queue.ts',
  stub: stubOf('redis'),
  inline: [SENDER_PACKAGE],
};
