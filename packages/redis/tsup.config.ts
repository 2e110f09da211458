import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    queue: 'src/queue.ts',
    metrics: 'src/metrics.ts',
    health: 'src/health.ts',
  },
  format: ['esm', 'cjs'],
  // The private contract package (the alert schema `enqueue` checks) is bundled from its
  // source modules, never installed: unused modules drop out. Its types are inlined should one
  // ever surface in ours; zod itself stays a dependency.
  dts: {
    resolve: ['@cspwatch/contract'],
    compilerOptions: { paths: { '@cspwatch/contract': ['../contract/src/index.ts'] } },
  },
  noExternal: ['@cspwatch/contract'],
  esbuildOptions(options) {
    options.alias = {
      '@cspwatch/contract': fileURLToPath(new URL('../contract/src', import.meta.url)),
    };
  },
  clean: true,
  sourcemap: false,
  target: 'es2022',
  platform: 'node',
  splitting: false,
  treeshake: true,
  removeNodeProtocol: false,
  // `import.meta.url` in the CommonJS build (the tracing module requires its optional peer).
  shims: true,
});
