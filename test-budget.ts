/**
 * Time budgets for tests. A timeout in a test guards against a hang; it is never a speed check.
 * The figure a test writes is what a quiet developer machine needs with room to spare, and
 * {@link budget} scales it for where the suite runs: CI machines have two cores and may run other
 * work beside the suite, so there every budget is four times as long. `CSPWATCH_TEST_TIME_SCALE`
 * (a number ≥ 1) sets the scale by hand, e.g. on a machine that is busier still.
 */

function timeScale(): number {
  const set = process.env.CSPWATCH_TEST_TIME_SCALE;
  if (set !== undefined && set !== '') {
    const scale = Number(set);
    if (!Number.isFinite(scale) || scale < 1) {
      throw new Error(`CSPWATCH_TEST_TIME_SCALE must be a number of at least 1 (got "${set}")`);
    }
    return scale;
  }
  return process.env.CI ? 4 : 1;
}

/** How many times longer than on a quiet developer machine a test may take here. */
export const TIME_SCALE = timeScale();

/** `ms` scaled by {@link TIME_SCALE}: use it for every test, hook and polling timeout. */
export function budget(ms: number): number {
  return Math.round(ms * TIME_SCALE);
}

/**
 * Vitest's own timeouts, scaled: spread into each project's `test` options. `expect.poll`'s
 * default (1 s) is raised too, since a poll waits on an event that a busy machine delays.
 */
export const scaledTimeouts = {
  testTimeout: budget(15_000),
  hookTimeout: budget(30_000),
  expect: { poll: { timeout: budget(5_000) } },
};
