import { describe, expect, it } from 'vitest';
import {
  type GroupResult,
  measureGroup,
  poolResults,
  ratioInterval,
  ratioOf,
  type Timings,
} from '../src/measure.js';

/** Timings of a numerator task `a` and a denominator `b`, one ratio per round. */
const timingsOf = (ratios: readonly number[]): Timings => ({
  perRound: new Map([
    ['a', ratios.map((ratio, round) => ratio * (round + 1))],
    ['b', ratios.map((_, round) => round + 1)],
  ]),
});

describe('paired ratios', () => {
  it('pairs the two tasks round by round, not their medians', () => {
    // Both tasks' medians are 2 (a ratio of 1); the per-round ratios are 1/3, 2 and 1.5.
    const timings: Timings = {
      perRound: new Map([
        ['a', [1, 2, 3]],
        ['b', [3, 1, 2]],
      ]),
    };
    expect(ratioOf(timings, 'a', 'b')).toBe(1.5);
    expect(ratioOf(timingsOf([1.3, 0.9, 1.1]), 'a', 'b')).toBeCloseTo(1.1);
  });

  it('gives NaN for a task the group does not have', () => {
    expect(ratioOf(timingsOf([1]), 'a', 'missing')).toBeNaN();
  });
});

describe('ratioInterval (distribution-free 95% interval of the median)', () => {
  const shuffled = (n: number) =>
    Array.from({ length: n }, (_, i) => i + 1).sort((x, y) => ((x * 7919) % n) - ((y * 7919) % n));

  it('takes the order statistics r(10) and r(22) of 31 rounds', () => {
    // P(Binomial(31, 1/2) <= 9) = 0.015 <= 0.025 < P(<= 10) = 0.035.
    expect(ratioInterval(timingsOf(shuffled(31)), 'a', 'b')).toEqual([10, 22]);
  });

  it('takes the extremes of 6 rounds and has no interval below 6', () => {
    // P(X = 0) = 1/64 <= 0.025 < P(X <= 1); with 5 rounds P(X = 0) = 1/32 > 0.025.
    expect(ratioInterval(timingsOf(shuffled(6)), 'a', 'b')).toEqual([1, 6]);
    expect(ratioInterval(timingsOf(shuffled(5)), 'a', 'b')).toEqual([Number.NaN, Number.NaN]);
  });

  it('narrows with more rounds at a lower level', () => {
    const [low95, high95] = ratioInterval(timingsOf(shuffled(63)), 'a', 'b');
    const [low80, high80] = ratioInterval(timingsOf(shuffled(63)), 'a', 'b', 0.8);
    expect(low80).toBeGreaterThan(low95);
    expect(high80).toBeLessThan(high95);
    expect(low95).toBeLessThanOrEqual(32);
    expect(high95).toBeGreaterThanOrEqual(32);
  });
});

describe('poolResults', () => {
  it('appends the second measurement rounds to the first, wall and CPU alike', () => {
    const group = (wall: number[], cpu: number[]): GroupResult => ({
      rounds: wall.length,
      perRound: new Map([['a', wall]]),
      calls: new Map([['a', 10]]),
      cpu: { perRound: new Map([['a', cpu]]) },
    });
    const pooled = poolResults(group([1, 2], [5]), group([3], [6, 7]));
    expect(pooled.rounds).toBe(3);
    expect(pooled.perRound.get('a')).toEqual([1, 2, 3]);
    expect(pooled.cpu.perRound.get('a')).toEqual([5, 6, 7]);
  });
});

describe('measureGroup', () => {
  it('times every task in every round on both clocks, sync and async alike', async () => {
    let syncCalls = 0;
    let asyncCalls = 0;
    const result = await measureGroup(
      [
        { name: 'sync', fn: () => (syncCalls += 1) },
        { name: 'async', fn: async () => (asyncCalls += 1) },
      ],
      { rounds: 4, batchMs: 2 },
    );
    expect(result.rounds).toBe(4);
    for (const name of ['sync', 'async']) {
      expect(result.perRound.get(name)).toHaveLength(4);
      expect(result.cpu.perRound.get(name)).toHaveLength(4);
      expect(result.calls.get(name)).toBeGreaterThan(0);
      for (const ns of result.perRound.get(name)!) expect(ns).toBeGreaterThan(0);
    }
    expect(asyncCalls).toBeGreaterThanOrEqual(5 * result.calls.get('async')!);
    expect(syncCalls).toBeGreaterThanOrEqual(5 * result.calls.get('sync')!);
  });

  it('measures a slower task as slower on both clocks', async () => {
    const spin = (n: number) => () => {
      let x = 0;
      for (let i = 0; i < n; i += 1) x += i;
      return x;
    };
    const result = await measureGroup(
      [
        { name: 'short', fn: spin(1_000) },
        { name: 'long', fn: spin(8_000) },
      ],
      { rounds: 6, batchMs: 5 },
    );
    expect(ratioOf(result, 'long', 'short')).toBeGreaterThan(2);
    expect(ratioOf(result.cpu, 'long', 'short')).toBeGreaterThan(2);
  });
});
