import { defineProject } from 'vitest/config';
import { budget, scaledTimeouts } from '../../test-budget.ts';
import { workspaceSourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: workspaceSourceAliases() },
  test: {
    name: 'redis',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Each file starts its own private redis-server; the multi-process runs are load tests.
    testTimeout: budget(60_000),
    hookTimeout: budget(30_000),
    expect: scaledTimeouts.expect,
  },
});
