import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared';

export default defineProject({
  resolve: { alias: workspaceSourceAliases() },
  test: {
    name: 'example-fetch-receiver',
    include: ['test/**/*.test.ts'],
  },
});
