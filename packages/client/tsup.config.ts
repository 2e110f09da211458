import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  // The private contract package is bundled, its types inlined: users install nothing extra.
  dts: { resolve: ['@cspwatch/contract'] },
  noExternal: ['@cspwatch/contract'],
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  splitting: false,
  treeshake: true,
});
