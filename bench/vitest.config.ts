import { defineProject } from 'vitest/config';
import { scaledTimeouts } from '../test-budget.ts';

export default defineProject({
  test: {
    ...scaledTimeouts,
    name: 'bench',
    include: ['test/**/*.test.ts'],
  },
});
