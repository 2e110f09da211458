import { defineConfig } from 'vitest/config';

/** One root config: every package, example and the bench are projects of their own. */
export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'packages/webhooks/vitest.edge.config.ts',
      'examples/*/vitest.config.ts',
      'bench/vitest.config.ts',
    ],
    passWithNoTests: true,
    coverage: {
      provider: 'v8',
      include: ['packages/*/src/**/*.ts'],
      exclude: ['**/*.test.ts', '**/*.test-d.ts'],
      reporter: ['text-summary', 'html'],
    },
  },
});
