import { defineProject } from 'vitest/config';
import { scaledTimeouts } from '../../test-budget.ts';
import { workspaceSourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: workspaceSourceAliases() },
  test: {
    ...scaledTimeouts,
    name: 'example-docs-check',
    include: ['test/**/*.test.ts'],
  },
});
