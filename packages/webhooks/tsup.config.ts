import { defineConfig } from 'tsup';

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
  dts: true,
  clean: true,
  sourcemap: false,
  target: 'es2022',
  platform: 'neutral',
  external: [/^node:/],
  removeNodeProtocol: false,
  splitting: false,
  treeshake: true,
});
