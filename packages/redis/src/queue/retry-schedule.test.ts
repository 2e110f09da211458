import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CspwatchRedisError } from '../errors';
import { deliveryQueueSchema, parseOptions } from './options';
import { delayBeforeAttempt } from './retry-schedule';

describe('delayBeforeAttempt', () => {
  it('stays within [delay × (1 − jitter), delay] for any schedule, attempt and random draw', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 7_200_000 }), { minLength: 1, maxLength: 8 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.nat({ max: 20 }),
        fc.double({ min: 0, max: 0.999_999, noNaN: true }),
        (delaysMs, jitter, attempt, draw) => {
          const delay = delaysMs[Math.min(attempt, delaysMs.length - 1)]!;
          const value = delayBeforeAttempt({ delaysMs, jitter }, attempt, () => draw);
          expect(Number.isInteger(value)).toBe(true);
          expect(value).toBeLessThanOrEqual(delay);
          expect(value).toBeGreaterThanOrEqual(Math.floor(delay * (1 - jitter)));
        },
      ),
    );
  });

  it('follows the schedule exactly without jitter, repeating the last delay past its end', () => {
    const schedule = { delaysMs: [0, 5_000, 300_000], jitter: 0 };
    expect([0, 1, 2, 3].map((attempt) => delayBeforeAttempt(schedule, attempt))).toEqual([
      0, 5_000, 300_000, 300_000,
    ]);
  });
});

describe('the retry schedule options', () => {
  const issuesOf = (delays: unknown, jitter?: unknown) => {
    const options = { connection: 'redis://127.0.0.1:1', attemptDelaysMs: delays, jitter };
    try {
      parseOptions('createDeliveryQueue', deliveryQueueSchema, options);
      return [];
    } catch (error) {
      return (error as CspwatchRedisError).issues.map((issue) => issue.path);
    }
  };
  it('accepts the default shape and refuses negative, fractional or missing delays and bad jitter', () => {
    expect(issuesOf([0, 5_000, 300_000, 1_800_000, 7_200_000], 0.2)).toEqual([]);
    expect(issuesOf([0, -1])).toEqual(['attemptDelaysMs.1']);
    expect(issuesOf([1.5])).toEqual(['attemptDelaysMs.0']);
    expect(issuesOf([])).toEqual(['attemptDelaysMs']);
    expect(issuesOf('0,5000')).toEqual(['attemptDelaysMs']);
    expect(issuesOf(undefined, -0.1)).toEqual(['jitter']);
    expect(issuesOf(undefined, Number.NaN)).toEqual(['jitter']);
  });
});
