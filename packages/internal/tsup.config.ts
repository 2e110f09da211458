import { defineConfig } from 'tsup';

// Built only so that tsc and tsup in the packages that bundle it resolve its types; never
// published. Each public package bundles it from `src` (see their tsup configs).
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: false,
  target: 'es2022',
  platform: 'neutral',
  splitting: false,
  treeshake: true,
});
