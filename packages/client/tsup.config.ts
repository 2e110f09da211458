import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

const contractSource = fileURLToPath(new URL('../contract/src', import.meta.url));
const internalSource = fileURLToPath(new URL('../internal/src', import.meta.url));

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  // The private contract and internal packages are bundled, their types inlined: users install
  // nothing extra.
  dts: {
    resolve: ['@cspwatch/contract', '@cspwatch/internal'],
    compilerOptions: {
      paths: {
        '@cspwatch/contract': [`${contractSource}/index.ts`],
        '@cspwatch/internal': [`${internalSource}/index.ts`],
      },
    },
  },
  noExternal: ['@cspwatch/contract', '@cspwatch/internal'],
  // From their source modules, so the unused ones (the document generator, the alert) drop out.
  esbuildOptions(options) {
    options.alias = {
      '@cspwatch/contract': contractSource,
      '@cspwatch/internal': internalSource,
    };
  },
  clean: true,
  sourcemap: false,
  target: 'es2022',
  platform: 'neutral',
  splitting: false,
  treeshake: true,
});
