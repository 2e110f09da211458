import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: workspaceSourceAliases() },
  test: {
    name: 'webhook-sender',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'] },
  },
});
