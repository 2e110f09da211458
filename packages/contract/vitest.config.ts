import { defineProject } from 'vitest/config';
import { scaledTimeouts } from '../../test-budget.ts';
import { workspaceSourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: workspaceSourceAliases() },
  test: {
    ...scaledTimeouts,
    name: 'contract',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
