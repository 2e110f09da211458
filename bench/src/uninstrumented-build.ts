/**
 * Two builds of one package from the same source, for the "zero cost when off" rows: as
 * shipped, and with `src/telemetry/tracing.ts` (the only module that touches
 * `@opentelemetry/api`) swapped for a no-op stub that exports the same names. Both are bundled
 * by esbuild with the same settings into bench/.cache/ (git-ignored), where
 * `@opentelemetry/api` (a bench dev dependency) resolves: the instrumented copy pays what a
 * user with the API installed and no tracer provider registered pays.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

/** Which package to build twice, and what stands in for its tracing module. */
export interface PackageCopyOptions {
  /** The package folder below `packages/`, e.g. `client`. */
  packageDir: string;
  /** The entry below the package folder, e.g. `src/index.ts`. */
  entry: string;
  /** The no-op stub's source: every name `src/telemetry/tracing.ts` exports, doing nothing. */
  stub: string;
}

/** The two copies of a package, as file URLs to `import()`. */
export interface PackageCopies {
  /** Built as shipped. */
  instrumented: string;
  /** Built with the tracing module swapped for the stub. */
  uninstrumented: string;
}

/** An esbuild plugin that swaps the package's `src/telemetry/tracing.ts` for `stub`. */
export function withoutTracing(packageDir: string, stub: string): Plugin {
  const target = join(root, 'packages', packageDir, 'src', 'telemetry', 'tracing.ts');
  return {
    name: 'without-tracing',
    setup(esbuild) {
      esbuild.onLoad({ filter: /[\\/]telemetry[\\/]tracing\.ts$/ }, (args) =>
        resolve(args.path) === target ? { contents: stub, loader: 'ts' } : undefined,
      );
    },
  };
}

/** Bundles one copy; a copy the stub did not reach would measure nothing, so it throws. */
async function bundle(options: PackageCopyOptions, outfile: string, plugins: Plugin[]) {
  const result = await build({
    entryPoints: [join(root, 'packages', options.packageDir, options.entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    // The private contract package, from its source as the package's own build takes it.
    alias: { '@cspwatch/contract': join(root, 'packages', 'contract', 'src') },
    plugins,
    metafile: true,
    logLevel: 'error',
  });
  const inputs = Object.keys(result.metafile.inputs);
  if (!inputs.some((input) => /telemetry[\\/]tracing\.ts$/.test(input))) {
    throw new Error(`${options.packageDir}: no src/telemetry/tracing.ts in the bundle`);
  }
}

/** Builds both copies of a package into bench/.cache/<package>/. */
export async function buildPackageCopies(options: PackageCopyOptions): Promise<PackageCopies> {
  const dir = join(here, '..', '.cache', options.packageDir);
  mkdirSync(dir, { recursive: true });
  const instrumented = join(dir, 'instrumented.mjs');
  const uninstrumented = join(dir, 'uninstrumented.mjs');
  await bundle(options, instrumented, []);
  await bundle(options, uninstrumented, [withoutTracing(options.packageDir, options.stub)]);
  return {
    instrumented: pathToFileURL(instrumented).href,
    uninstrumented: pathToFileURL(uninstrumented).href,
  };
}
