import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', queue: 'src/queue.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: false,
  target: 'es2022',
  platform: 'node',
  splitting: false,
  treeshake: true,
  removeNodeProtocol: false,
});
