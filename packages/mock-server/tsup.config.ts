import { defineConfig, type Options } from 'tsup';
import { bundlePrivatePackages, privatePackageTypes } from '../../tsup.shared.ts';

const library = {
  dts: privatePackageTypes,
  sourcemap: false,
  target: 'es2022',
  platform: 'node',
  removeNodeProtocol: false,
  splitting: false,
  treeshake: true,
  external: ['msw', '@cspwatch/webhooks'],
  ...bundlePrivatePackages,
} satisfies Options;

export default defineConfig([
  { ...library, entry: { index: 'src/index.ts' }, format: ['esm', 'cjs'], clean: true },
  // `/msw` loads msw itself so that a missing msw is a typed error: with a top-level await in
  // the ESM build, with a require in the CommonJS one (which has no top-level await).
  { ...library, entry: { msw: 'src/msw.ts' }, format: ['esm'], clean: false },
  { ...library, entry: { msw: 'src/msw-require.ts' }, format: ['cjs'], clean: false },
  {
    // The bin: ESM only, run by Node; tsup keeps the #! line of src/cli.ts.
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    dts: false,
    clean: false,
    sourcemap: false,
    target: 'es2022',
    platform: 'node',
    removeNodeProtocol: false,
    splitting: false,
    external: ['msw', '@cspwatch/webhooks'],
    ...bundlePrivatePackages,
  },
]);
