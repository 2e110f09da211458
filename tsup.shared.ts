import { fileURLToPath } from 'node:url';
import type { Options } from 'tsup';

/**
 * The private workspace packages every public package bundles from their source modules, so
 * users install nothing extra and what a package does not import drops out.
 */
const PRIVATE_PACKAGES = {
  '@cspwatch/contract': fileURLToPath(new URL('./packages/contract/src', import.meta.url)),
  '@cspwatch/internal': fileURLToPath(new URL('./packages/internal/src', import.meta.url)),
} as const;

const names = Object.keys(PRIVATE_PACKAGES);

/** tsup options that bundle the private packages into the build (spread into a config). */
export const bundlePrivatePackages = {
  noExternal: names,
  esbuildOptions(
    options: { alias?: Record<string, string>; define?: Record<string, string> },
    { format }: { format: string },
  ) {
    options.alias = { ...options.alias, ...PRIVATE_PACKAGES };
    // CommonJS has no import.meta: a module that requires an optional peer from its own place
    // (telemetry/tracing.ts) gets the file name instead.
    if (format === 'cjs') options.define = { ...options.define, 'import.meta.url': '__filename' };
  },
} satisfies Options;

/** `dts` options that inline the private packages' types, so no `.d.ts` imports them. */
export const privatePackageTypes = {
  resolve: names,
  compilerOptions: {
    paths: Object.fromEntries(
      Object.entries(PRIVATE_PACKAGES).map(([name, source]) => [name, [`${source}/index.ts`]]),
    ),
  },
};
