import { defineConfig, type Options } from 'tsup';
import { bundlePrivatePackages, privatePackageTypes } from '../../tsup.shared.ts';

const shared: Options = {
  clean: false,
  sourcemap: false,
  target: 'es2022',
  platform: 'node',
  splitting: false,
  treeshake: true,
  removeNodeProtocol: false,
  ...bundlePrivatePackages,
};

export default defineConfig([
  // The library: ESM and CJS, with types for both.
  {
    ...shared,
    entry: { index: 'src/index.ts', 'command-line': 'src/command-line.ts' },
    format: ['esm', 'cjs'],
    dts: privatePackageTypes,
    clean: true,
  },
  // The CLI: only `bin/cspwatch-webhook.js` loads it, as ESM.
  { ...shared, entry: { cli: 'src/cli/cli.ts' }, format: ['esm'], dts: false },
]);
