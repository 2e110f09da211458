/**
 * The retry schedule: a delay before each attempt, with jitter that only ever shortens a
 * delay (BullMQ's convention), so the schedule is an upper bound.
 */
import type { RedisOptionIssue } from '../errors';

/** A schedule after validation. */
export interface RetrySchedule {
  /** Delay before each attempt, ms; the length is the number of attempts. */
  readonly delaysMs: readonly number[];
  /** Fraction of each delay that may be cut at random, 0 to 1. */
  readonly jitter: number;
}

const MAX_DELAY_MS = 30 * 24 * 3_600_000;

/** Validates a schedule; pushes what is wrong. */
export function checkRetrySchedule(
  issues: RedisOptionIssue[],
  delaysMs: unknown,
  jitter: unknown,
): void {
  if (delaysMs !== undefined) {
    if (!Array.isArray(delaysMs) || delaysMs.length === 0 || delaysMs.length > 100) {
      issues.push({
        path: 'attemptDelaysMs',
        message: 'must be an array of 1 to 100 delays in ms',
      });
    } else {
      delaysMs.forEach((delay, index) => {
        if (!Number.isSafeInteger(delay) || delay < 0 || delay > MAX_DELAY_MS) {
          issues.push({
            path: `attemptDelaysMs.${index}`,
            message: `must be an integer from 0 to ${MAX_DELAY_MS} ms (got ${String(delay)})`,
          });
        }
      });
    }
  }
  if (jitter !== undefined && (typeof jitter !== 'number' || !(jitter >= 0 && jitter <= 1))) {
    issues.push({ path: 'jitter', message: 'must be a number from 0 to 1' });
  }
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
