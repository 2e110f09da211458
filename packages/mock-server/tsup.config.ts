import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: { index: 'src/index.ts', msw: 'src/msw.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'es2022',
    platform: 'node',
    removeNodeProtocol: false,
    splitting: false,
    treeshake: true,
    external: ['msw', '@cspwatch/webhooks'],
    // The private contract package (schemas, the OpenAPI document) is bundled, never installed.
    noExternal: ['@cspwatch/contract'],
  },
  {
    // The bin: ESM only, run by Node; tsup keeps the #! line of src/cli.ts.
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    dts: false,
    clean: false,
    sourcemap: true,
    target: 'es2022',
    platform: 'node',
    removeNodeProtocol: false,
    splitting: false,
    external: ['msw', '@cspwatch/webhooks'],
    // The private contract package (schemas, the OpenAPI document) is bundled, never installed.
    noExternal: ['@cspwatch/contract'],
  },
]);
