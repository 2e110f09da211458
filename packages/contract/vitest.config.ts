import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: workspaceSourceAliases() },
  test: {
    name: 'contract',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
