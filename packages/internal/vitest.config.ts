import { defineProject } from 'vitest/config';
import { scaledTimeouts } from '../../test-budget.ts';

export default defineProject({
  test: {
    ...scaledTimeouts,
    name: 'internal',
    include: ['test/**/*.test.ts'],
  },
});
