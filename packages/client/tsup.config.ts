import { defineConfig } from 'tsup';
import { bundlePrivatePackages, privatePackageTypes } from '../../tsup.shared.ts';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: privatePackageTypes,
  ...bundlePrivatePackages,
  clean: true,
  sourcemap: false,
  target: 'es2022',
  platform: 'neutral',
  splitting: false,
  treeshake: true,
});
