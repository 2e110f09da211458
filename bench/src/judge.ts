/**
 * Verdicts on ratio targets that a noisy machine cannot flip: a target is judged on the 95%
 * confidence interval of its median paired ratio, not on the median alone. A cell whose
 * interval straddles the limit is measured again (the rounds pooled, so the interval narrows)
 * up to `maxRemeasures` times, and the report says so.
 */
import {
  type GroupResult,
  type MeasureBudget,
  measureGroup,
  poolResults,
  ratioInterval,
  ratioOf,
  type TimedTask,
} from './measure.js';

/** The verdict on one ratio target in one cell. */
export interface RatioJudgement {
  /** Median of the per-round ratios (all rounds, pooled across re-measurements). */
  ratio: number;
  /** 95% confidence interval of that median. */
  interval: [number, number];
  /** `pass`: the interval lies at or under the limit; `fail`: above it; else `inconclusive`. */
  verdict: 'pass' | 'fail' | 'inconclusive';
  /** How many times the cell was measured again because its interval straddled the limit. */
  remeasured: number;
}

/** One ratio target: `numerator / denominator <= limit`. */
export interface RatioTarget {
  numerator: string;
  denominator: string;
  limit: number;
}

const verdictOf = ([low, high]: [number, number], limit: number): RatioJudgement['verdict'] =>
  high <= limit ? 'pass' : low > limit ? 'fail' : 'inconclusive';

/**
 * Measures `tasks` in interleaved rounds and judges every target on the result; while a
 * target is inconclusive, measures the group again and pools the rounds (at most
 * `maxRemeasures` times).
 */
export async function judgeTargets(
  tasks: readonly TimedTask[],
  targets: readonly RatioTarget[],
  budget: MeasureBudget,
  maxRemeasures = 2,
): Promise<RatioJudgement[]> {
  let result: GroupResult = await measureGroup(tasks, budget);
  let remeasured = 0;
  const judge = () =>
    targets.map((target): RatioJudgement => {
      const interval = ratioInterval(result, target.numerator, target.denominator);
      return {
        ratio: ratioOf(result, target.numerator, target.denominator),
        interval,
        verdict: verdictOf(interval, target.limit),
        remeasured,
      };
    });
  let judgements = judge();
  while (remeasured < maxRemeasures && judgements.some((j) => j.verdict === 'inconclusive')) {
    result = poolResults(result, await measureGroup(tasks, budget));
    remeasured += 1;
    judgements = judge();
  }
  return judgements;
}
