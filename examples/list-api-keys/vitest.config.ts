import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: workspaceSourceAliases() },
  test: {
    name: 'example-list-api-keys',
    include: ['test/**/*.test.ts'],
  },
});
