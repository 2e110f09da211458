import { defineProject } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared';

export default defineProject({
  resolve: { alias: workspaceSourceAliases() },
  test: {
    name: 'example-openapi-interop',
    include: ['test/**/*.test.ts'],
  },
});
