import { defineConfig } from 'tsup';

// Built only so that tsc and tsup in the packages that bundle it (client, mock-server) resolve
// its types; never published. `testing` holds the response validator used by other packages' tests;
// `generator` the document builders the mock's generator uses.
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    document: 'src/document.ts',
    generator: 'src/generator.ts',
    testing: 'src/testing.ts',
  },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: false,
  target: 'es2022',
  platform: 'neutral',
  splitting: false,
  treeshake: true,
  external: ['ajv', 'ajv-formats'],
});
