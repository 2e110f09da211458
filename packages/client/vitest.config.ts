import { defineProject } from 'vitest/config';
import { scaledTimeouts } from '../../test-budget.ts';
import { workspaceSourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: workspaceSourceAliases() },
  test: {
    ...scaledTimeouts,
    name: 'client',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Every request the client sends in a test is checked against openapi.json.
    setupFiles: ['./test/request-conformance.ts'],
    typecheck: {
      enabled: true,
      include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'],
      // Only the type tests and what they import: `pnpm typecheck` covers the rest.
      tsconfig: './tsconfig.test-d.json',
    },
  },
});
