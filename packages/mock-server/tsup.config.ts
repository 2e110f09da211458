import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

// The private contract package (schemas, the OpenAPI document) is bundled from its source
// modules, never installed: unused modules drop out.
const contract = {
  noExternal: ['@cspwatch/contract'],
  esbuildOptions(options: { alias?: Record<string, string> }) {
    options.alias = {
      '@cspwatch/contract': fileURLToPath(new URL('../contract/src', import.meta.url)),
    };
  },
};

export default defineConfig([
  {
    entry: { index: 'src/index.ts', msw: 'src/msw.ts' },
    format: ['esm', 'cjs'],
    // Contract types (ProblemCode) are inlined: users never install the private package.
    dts: {
      resolve: ['@cspwatch/contract'],
      compilerOptions: { paths: { '@cspwatch/contract': ['../contract/src/index.ts'] } },
    },
    clean: true,
    sourcemap: false,
    target: 'es2022',
    platform: 'node',
    removeNodeProtocol: false,
    splitting: false,
    treeshake: true,
    external: ['msw', '@cspwatch/webhooks'],
    ...contract,
  },
  {
    // The bin: ESM only, run by Node; tsup keeps the #! line of src/cli.ts.
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    dts: false,
    clean: false,
    sourcemap: false,
    target: 'es2022',
    platform: 'node',
    removeNodeProtocol: false,
    splitting: false,
    external: ['msw', '@cspwatch/webhooks'],
    ...contract,
  },
]);
