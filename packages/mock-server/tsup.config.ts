import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';

// The private contract package (schemas, the OpenAPI document) is bundled from its source
// modules, never installed: unused modules drop out.
const contract = {
  noExternal: ['@cspwatch/contract'],
  esbuildOptions(
    options: { alias?: Record<string, string>; define?: Record<string, string> },
    { format }: { format: string },
  ) {
    options.alias = {
      '@cspwatch/contract': fileURLToPath(new URL('../contract/src', import.meta.url)),
    };
    // CommonJS has no import.meta: telemetry/tracing.ts requires its optional peer from here.
    if (format === 'cjs') options.define = { 'import.meta.url': '__filename' };
  },
};

const library = {
  // Contract types (ProblemCode) are inlined: users never install the private package.
  dts: {
    resolve: ['@cspwatch/contract'],
    compilerOptions: { paths: { '@cspwatch/contract': ['../contract/src/index.ts'] } },
  },
  sourcemap: false,
  target: 'es2022',
  platform: 'node',
  removeNodeProtocol: false,
  splitting: false,
  treeshake: true,
  external: ['msw', '@cspwatch/webhooks'],
  ...contract,
} satisfies Options;

export default defineConfig([
  { ...library, entry: { index: 'src/index.ts' }, format: ['esm', 'cjs'], clean: true },
  // `/msw` loads msw itself so that a missing msw is a typed error: with a top-level await in
  // the ESM build, with a require in the CommonJS one (which has no top-level await).
  { ...library, entry: { msw: 'src/msw.ts' }, format: ['esm'], clean: false },
  { ...library, entry: { msw: 'src/msw-require.ts' }, format: ['cjs'], clean: false },
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
