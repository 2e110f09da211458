import { defineProject } from 'vitest/config';
import { scaledTimeouts } from '../../test-budget.ts';
import { workspaceSourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: workspaceSourceAliases() },
  test: {
    ...scaledTimeouts,
    name: 'webhooks',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // test/edge runs in the webhooks-edge project (vitest.edge.config.ts).
    exclude: ['test/edge/**', '**/node_modules/**'],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'] },
  },
});
