import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'webhook-sender',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'] },
  },
});
