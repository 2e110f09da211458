import { defineProject } from 'vitest/config';
import { scaledTimeouts } from '../../test-budget';
import { workspaceSourceAliases } from '../../vitest.shared';

export default defineProject({
  resolve: { alias: workspaceSourceAliases() },
  test: {
    ...scaledTimeouts,
    name: 'example-create-website',
    include: ['test/**/*.test.ts'],
  },
});
