import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

const internalSource = fileURLToPath(new URL('../internal/src', import.meta.url));

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
  // The private shared base is bundled, its types inlined: users install nothing extra.
  dts: {
    resolve: ['@cspwatch/internal'],
    compilerOptions: { paths: { '@cspwatch/internal': [`${internalSource}/index.ts`] } },
  },
  noExternal: ['@cspwatch/internal'],
  // From its source modules, so what this package does not use drops out.
  esbuildOptions(options) {
    options.alias = {
      '@cspwatch/internal': internalSource,
    };
  },
  clean: true,
  sourcemap: false,
  target: 'es2022',
  platform: 'neutral',
  external: [/^node:/],
  removeNodeProtocol: false,
  splitting: false,
  treeshake: true,
});
