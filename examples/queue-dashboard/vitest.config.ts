import { defineProject } from 'vitest/config';
import { scaledTimeouts } from '../../test-budget';
import { workspaceSourceAliases } from '../../vitest.shared';

export default defineProject({
  resolve: { alias: workspaceSourceAliases() },
  test: {
    ...scaledTimeouts,
    name: 'example-queue-dashboard',
    include: ['test/**/*.test.ts'],
  },
});
