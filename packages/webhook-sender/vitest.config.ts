import { defineProject } from 'vitest/config';
import { scaledTimeouts } from '../../test-budget.ts';
import { workspaceSourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: workspaceSourceAliases() },
  test: {
    ...scaledTimeouts,
    name: 'webhook-sender',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'] },
  },
});
