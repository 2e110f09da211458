import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  // The private contract package is bundled, its types inlined: users install nothing extra.
  dts: { resolve: ['@cspwatch/contract'] },
  noExternal: ['@cspwatch/contract'],
  // From its source modules, so the unused ones (the document generator, the alert) drop out.
  esbuildOptions(options, { format }) {
    options.alias = {
      '@cspwatch/contract': fileURLToPath(new URL('../contract/src', import.meta.url)),
    };
    // CommonJS has no import.meta: telemetry/tracing.ts requires its optional peer from here.
    if (format === 'cjs') options.define = { 'import.meta.url': '__filename' };
  },
  clean: true,
  sourcemap: false,
  target: 'es2022',
  platform: 'neutral',
  splitting: false,
  treeshake: true,
});
