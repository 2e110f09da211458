/**
 * Verdicts on ratio targets that a noisy machine cannot flip: a target is judged on the 95%
 * confidence interval of its median paired ratio, not on the median alone: `pass` when the
 * whole interval is at or under the limit, `fail` when it is all above, else `inconclusive`
 * (the caller may measure the cell again, pool the rounds and judge again; see
 * verify-bench.ts).
 */
import { type GroupResult, ratioInterval, ratioOf, type Timings } from './measure.js';

/** The clock a target is judged on: wall time, or CPU time of the process (all threads). */
export type Clock = 'wall' | 'cpu';

/** A median paired ratio and the 95% confidence interval of that median. */
export interface RatioEstimate {
  ratio: number;
  interval: [number, number];
}

/** The verdict on one ratio target in one cell. */
export interface RatioJudgement extends RatioEstimate {
  /** The clock of `ratio` and `interval` (the target's). */
  clock: Clock;
  /** The same rounds on both clocks, for information. */
  byClock: Record<Clock, RatioEstimate>;
  /** `pass`: the interval lies at or under the limit; `fail`: above it; else `inconclusive`. */
  verdict: 'pass' | 'fail' | 'inconclusive';
  /** How many times the cell was measured again because its interval straddled the limit. */
  remeasured: number;
  /** Timed rounds behind the figures (all measurements pooled). */
  rounds: number;
}

/** One ratio target: `numerator / denominator <= limit`, judged on `clock`. */
export interface RatioTarget {
  numerator: string;
  denominator: string;
  limit: number;
  clock: Clock;
}

const verdictOf = ([low, high]: [number, number], limit: number): RatioJudgement['verdict'] =>
  high <= limit ? 'pass' : low > limit ? 'fail' : 'inconclusive';

/** The median paired ratio of a target in `timings` and its 95% interval. */
function estimate(timings: Timings, target: RatioTarget): RatioEstimate {
  return {
    ratio: ratioOf(timings, target.numerator, target.denominator),
    interval: ratioInterval(timings, target.numerator, target.denominator),
  };
}

/** Judges every target on one group result; `remeasured` is recorded in each judgement. */
export function judgeResult(
  result: GroupResult,
  targets: readonly RatioTarget[],
  remeasured = 0,
): RatioJudgement[] {
  return targets.map((target): RatioJudgement => {
    const byClock = { wall: estimate(result, target), cpu: estimate(result.cpu, target) };
    const own = byClock[target.clock];
    return {
      ...own,
      clock: target.clock,
      byClock,
      verdict: verdictOf(own.interval, target.limit),
      remeasured,
      rounds: result.rounds,
    };
  });
}
