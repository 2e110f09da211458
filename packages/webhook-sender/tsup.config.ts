import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';

const contractSource = fileURLToPath(new URL('../contract/src', import.meta.url));

const shared: Options = {
  clean: false,
  sourcemap: false,
  target: 'es2022',
  platform: 'node',
  splitting: false,
  treeshake: true,
  removeNodeProtocol: false,
  // `import.meta.url` in the CommonJS build (the tracing module requires its optional peer).
  shims: true,
  // The private contract package (the URL rule of printed text) is bundled from its source
  // modules, never installed: only what the sender imports is kept.
  noExternal: ['@cspwatch/contract'],
  esbuildOptions(options) {
    options.alias = { '@cspwatch/contract': contractSource };
  },
};

export default defineConfig([
  // The library: ESM and CJS, with types for both (the contract is not in them).
  {
    ...shared,
    entry: { index: 'src/index.ts', 'command-line': 'src/command-line.ts' },
    format: ['esm', 'cjs'],
    dts: { compilerOptions: { paths: { '@cspwatch/contract': [`${contractSource}/index.ts`] } } },
    clean: true,
  },
  // The CLI: only `bin/cspwatch-webhook.js` loads it, as ESM.
  { ...shared, entry: { cli: 'src/cli/cli.ts' }, format: ['esm'], dts: false },
]);
