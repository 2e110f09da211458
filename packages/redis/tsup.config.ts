import { defineConfig } from 'tsup';
import { bundlePrivatePackages, privatePackageTypes } from '../../tsup.shared.ts';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    queue: 'src/queue.ts',
    metrics: 'src/metrics.ts',
    health: 'src/health.ts',
  },
  format: ['esm', 'cjs'],
  // zod, which the bundled contract's alert schema uses, stays a dependency.
  dts: privatePackageTypes,
  ...bundlePrivatePackages,
  clean: true,
  sourcemap: false,
  target: 'es2022',
  platform: 'node',
  splitting: false,
  treeshake: true,
  removeNodeProtocol: false,
});
