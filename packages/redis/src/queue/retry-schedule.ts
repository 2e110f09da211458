/**
 * The retry schedule: a delay before each attempt, with jitter that only ever shortens a
 * delay (BullMQ's convention), so the schedule is an upper bound. The `attemptDelaysMs` and
 * `jitter` options are checked with the queue's other options (`options.ts`).
 */
/** A schedule after validation. */
export interface RetrySchedule {
  /** Delay before each attempt, ms; the length is the number of attempts. */
  readonly delaysMs: readonly number[];
  /** Fraction of each delay that may be cut at random, 0 to 1. */
  readonly jitter: number;
}

/** The delay before attempt `attemptIndex` (0 = first attempt), jittered. */
export function delayBeforeAttempt(
  schedule: RetrySchedule,
  attemptIndex: number,
  random: () => number = Math.random,
): number {
  const delay = schedule.delaysMs[Math.min(attemptIndex, schedule.delaysMs.length - 1)] ?? 0;
  return Math.floor(delay * (1 - schedule.jitter) + random() * delay * schedule.jitter);
}
