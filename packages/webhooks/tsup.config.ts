import { defineConfig } from 'tsup';
import { bundlePrivatePackages, privatePackageTypes } from '../../tsup.shared.ts';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    node: 'src/node.ts',
    testing: 'src/testing.ts',
    'testing-node': 'src/testing-node.ts',
    express: 'src/express.ts',
    next: 'src/next.ts',
    fetch: 'src/fetch.ts',
    fastify: 'src/fastify.ts',
  },
  format: ['esm', 'cjs'],
  // Zero runtime dependencies: the private shared package is bundled, its types inlined.
  dts: privatePackageTypes,
  ...bundlePrivatePackages,
  clean: true,
  sourcemap: false,
  target: 'es2022',
  platform: 'neutral',
  external: [/^node:/],
  removeNodeProtocol: false,
  splitting: false,
  treeshake: true,
});
