import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  // The private contract package is bundled, its types inlined: users install nothing extra.
  dts: { resolve: ['@cspwatch/contract'] },
  noExternal: ['@cspwatch/contract'],
  // From its source modules, so the unused ones (the document generator, the alert) drop out.
  esbuildOptions(options) {
    options.alias = {
      '@cspwatch/contract': fileURLToPath(new URL('../contract/src', import.meta.url)),
    };
  },
  clean: true,
  sourcemap: false,
  target: 'es2022',
  platform: 'neutral',
  splitting: false,
  treeshake: true,
});
