import { describe, expect, it } from 'vitest';
import { judgeResult, type RatioTarget } from '../src/judge.js';
import type { GroupResult } from '../src/measure.js';

/** A group whose per-round ratios a / b are `wall` on the wall clock and `cpu` in CPU time. */
function group(wall: readonly number[], cpu: readonly number[]): GroupResult {
  const ones = (n: number) => Array.from({ length: n }, () => 1);
  return {
    rounds: wall.length,
    perRound: new Map([
      ['a', [...wall]],
      ['b', ones(wall.length)],
    ]),
    calls: new Map([
      ['a', 1],
      ['b', 1],
    ]),
    cpu: {
      perRound: new Map([
        ['a', [...cpu]],
        ['b', ones(cpu.length)],
      ]),
    },
  };
}

const around = (center: number, n = 11) =>
  Array.from({ length: n }, (_, i) => center + (i - (n - 1) / 2) * 0.01);
const target = (limit: number, clock: RatioTarget['clock']): RatioTarget => ({
  numerator: 'a',
  denominator: 'b',
  limit,
  clock,
});

describe('judgeResult', () => {
  it('passes only when the whole 95% interval is at or under the limit', () => {
    // 11 rounds 0.95 .. 1.05: the interval is [r(2), r(10)] = [0.96, 1.04].
    const result = group(around(1), around(1));
    const [pass] = judgeResult(result, [target(1.04, 'wall')]);
    expect(pass).toMatchObject({ verdict: 'pass', ratio: 1, rounds: 11, remeasured: 0 });
    expect(pass!.interval[0]).toBeCloseTo(0.96);
    expect(pass!.interval[1]).toBeCloseTo(1.04);
    expect(judgeResult(result, [target(1.03, 'wall')])[0]!.verdict).toBe('inconclusive');
    expect(judgeResult(result, [target(0.95, 'wall')])[0]!.verdict).toBe('fail');
  });

  it("judges on the target's clock and reports both", () => {
    const result = group(around(1.3), around(1));
    const [onCpu] = judgeResult(result, [target(1.1, 'cpu')], 2);
    expect(onCpu).toMatchObject({ clock: 'cpu', verdict: 'pass', remeasured: 2 });
    expect(onCpu!.byClock.wall.ratio).toBeCloseTo(1.3);
    expect(judgeResult(result, [target(1.1, 'wall')])[0]!.verdict).toBe('fail');
  });

  it('is inconclusive when there are too few rounds for an interval', () => {
    expect(judgeResult(group([1, 1, 1], [1, 1, 1]), [target(2, 'cpu')])[0]!.verdict).toBe(
      'inconclusive',
    );
  });
});
