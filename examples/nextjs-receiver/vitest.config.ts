import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: workspaceSourceAliases() },
  test: {
    name: 'example-nextjs-receiver',
    include: ['test/**/*.test.ts'],
  },
});
