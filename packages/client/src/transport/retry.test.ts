import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay, isRetryableStatus, parseRetryAfter } from './retry';

describe('parseRetryAfter', () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);
  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter('9'.repeat(400), now)).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseRetryAfter('Wed, 01 Jan 2025 12:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 11:00:00 GMT', now)).toBe(0);
  });
  it('ignores absent or unreadable values', () => {
    for (const value of [null, '', '-1', 'soon', '1e3', '0x10', 'NaN']) {
      expect(parseRetryAfter(value, now)).toBeUndefined();
    }
  });
  it('never returns a negative or non-finite wait', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const ms = parseRetryAfter(value, now);
        return ms === undefined || (Number.isFinite(ms) && ms >= 0);
      }),
      { numRuns: 300 },
    );
  });
});

describe('backoffDelay', () => {
  it('stays within [0, min(max, base * 2^retry)) for any random value', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 }),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        (retry, r) => {
          const delay = backoffDelay(retry, () => r, 500, 10_000);
          return (
            delay >= 0 && delay < Math.min(10_000, 500 * 2 ** retry) + 1 && Number.isInteger(delay)
          );
        },
      ),
      { numRuns: 300 },
    );
  });
  it('doubles the ceiling per retry (full jitter)', () => {
    expect([0, 1, 2, 3, 10].map((retry) => backoffDelay(retry, () => 0.999, 500, 10_000))).toEqual([
      499, 999, 1998, 3996, 9990,
    ]);
    expect(backoffDelay(3, () => 0, 500, 10_000)).toBe(0);
    for (const broken of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
      const delay = backoffDelay(1, () => broken, 500, 10_000);
      expect(delay >= 0 && delay <= 1_000).toBe(true);
    }
  });
});

describe('isRetryableStatus', () => {
  it('retries 408, 429 and 500/502/503/504 for GET, only 429 for POST', () => {
    const statuses = [400, 401, 403, 404, 408, 409, 422, 429, 500, 501, 502, 503, 504, 505];
    expect(statuses.filter((s) => isRetryableStatus(s, true))).toEqual([
      408, 429, 500, 502, 503, 504,
    ]);
    expect(statuses.filter((s) => isRetryableStatus(s, false))).toEqual([429]);
  });
});
