/**
 * Timing in interleaved rounds with paired ratios. Every task of a group runs once per round,
 * as one batch of calls timed with the wall clock (`process.hrtime.bigint()`), in an order
 * rotated each round so no task always goes first; the first round is a discarded warm-up.
 * A task's time is the median over rounds of its time per call; a ratio of two tasks is the
 * median over rounds of their per-round ratio, so drift of the machine between rounds (other
 * work, CPU frequency, a noisy neighbour) cancels out.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { median } from './report.js';

/** One function to time; if it returns a promise, its batch awaits every call in turn. */
export interface TimedTask {
  name: string;
  fn: () => unknown;
}

/** How long to measure: timed rounds per group and the wall time of one batch. */
export interface MeasureBudget {
  /** Timed rounds per group; one more warm-up round runs first and is discarded. */
  rounds: number;
  /** Target wall time of one batch, in ms: it sets each task's calls per batch. */
  batchMs: number;
}

/** Full run: 21 paired rounds of ~25 ms batches, within the 5-minute budget on 2 cores. */
export const FULL_BUDGET: MeasureBudget = Object.freeze({ rounds: 21, batchMs: 25 });
/** `--quick`: checks that everything runs; the figures are rough. */
export const QUICK_BUDGET: MeasureBudget = Object.freeze({ rounds: 3, batchMs: 5 });

/** What one group measured: per task, the time per call (ns) of each timed round. */
export interface GroupResult {
  rounds: number;
  perRound: ReadonlyMap<string, readonly number[]>;
  /** Calls per batch, by task. */
  calls: ReadonlyMap<string, number>;
}

/**
 * A full GC before each batch, so that no task pays for the garbage the previous one left
 * (a 1 MB JSON.parse leaves megabytes). Exposed at run time: the bench needs no flag.
 */
const fullGc = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';

function runSync(fn: () => unknown, calls: number): number {
  const start = process.hrtime.bigint();
  for (let call = 0; call < calls; call += 1) fn();
  return Number(process.hrtime.bigint() - start);
}

async function runAsync(fn: () => unknown, calls: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let call = 0; call < calls; call += 1) await fn();
  return Number(process.hrtime.bigint() - start);
}

/** Warms a task up, then sizes its batch: doubles the calls until a batch takes batchMs / 4. */
async function calibrate(task: TimedTask, batchMs: number) {
  const first = task.fn();
  const isAsync = isThenable(first);
  if (isAsync) await first;
  const run = (calls: number) => (isAsync ? runAsync(task.fn, calls) : runSync(task.fn, calls));
  const target = batchMs * 1e6;
  // Warm-up so the JIT has settled before the batch is sized: 2 x batchMs or 10,000 calls.
  const until = process.hrtime.bigint() + BigInt(2 * target);
  for (let call = 0; call < 10_000 && process.hrtime.bigint() < until; call += 1) {
    await run(1);
  }
  for (let calls = 1; ; calls *= 2) {
    const ns = await run(calls);
    if (ns >= target / 4 || calls >= 2 ** 24) {
      return { run, calls: Math.max(1, Math.round((calls * target) / ns)) };
    }
  }
}

/** Measures every task of a group in interleaved rounds (see the file comment). */
export async function measureGroup(
  tasks: readonly TimedTask[],
  budget: MeasureBudget,
): Promise<GroupResult> {
  const sized = [];
  for (const task of tasks) sized.push({ task, ...(await calibrate(task, budget.batchMs)) });
  const perRound = new Map<string, number[]>(tasks.map((task) => [task.name, []]));
  for (let round = 0; round <= budget.rounds; round += 1) {
    for (let index = 0; index < sized.length; index += 1) {
      const { task, run, calls } = sized[(round + index) % sized.length]!;
      fullGc();
      const ns = await run(calls);
      if (round > 0) perRound.get(task.name)!.push(ns / calls);
    }
  }
  const calls = new Map(sized.map(({ task, calls }) => [task.name, calls]));
  return { rounds: budget.rounds, perRound, calls };
}

/** A task's time per call in ns: the median over rounds; NaN if the group has no such task. */
export function timeOf(result: GroupResult, name: string): number {
  const values = result.perRound.get(name);
  return values ? median(values) : Number.NaN;
}

/** Per-round ratios `numerator / denominator`, paired within each round, sorted. */
function pairedRatios(result: GroupResult, numerator: string, denominator: string): number[] {
  const top = result.perRound.get(numerator);
  const bottom = result.perRound.get(denominator);
  if (!top || !bottom) return [];
  return top.map((value, round) => value / bottom[round]!).sort((a, b) => a - b);
}

/** The median over rounds of the per-round ratio of two tasks; NaN if either is missing. */
export function ratioOf(result: GroupResult, numerator: string, denominator: string): number {
  const ratios = pairedRatios(result, numerator, denominator);
  return ratios.length > 0 ? median(ratios) : Number.NaN;
}

/** The interquartile range of the per-round ratios: [25th, 75th percentile]. */
export function ratioQuartiles(
  result: GroupResult,
  numerator: string,
  denominator: string,
): [number, number] {
  const ratios = pairedRatios(result, numerator, denominator);
  if (ratios.length === 0) return [Number.NaN, Number.NaN];
  const at = (q: number) => ratios[Math.min(ratios.length - 1, Math.floor(q * ratios.length))]!;
  return [at(0.25), at(0.75)];
}

/**
 * A distribution-free confidence interval for the median of the per-round ratios: with n
 * sorted ratios, the order statistics [r(k), r(n+1-k)], where k is the largest rank such that
 * P(Binomial(n, 1/2) < k) <= (1 - level) / 2. It assumes only independent rounds, not a normal
 * distribution, so one wild round cannot move it much. NaN bounds when n is too small.
 */
export function ratioInterval(
  result: GroupResult,
  numerator: string,
  denominator: string,
  level = 0.95,
): [number, number] {
  const ratios = pairedRatios(result, numerator, denominator);
  const k = medianRankBound(ratios.length, (1 - level) / 2);
  if (k === 0) return [Number.NaN, Number.NaN];
  return [ratios[k - 1]!, ratios[ratios.length - k]!];
}

/** The largest k >= 1 with P(Binomial(n, 1/2) <= k - 1) <= alpha, or 0 if there is none. */
function medianRankBound(n: number, alpha: number): number {
  let cumulative = 0;
  let term = 0.5 ** n; // P(X = 0)
  let k = 0;
  for (let i = 0; i < n; i += 1) {
    cumulative += term;
    if (cumulative > alpha) break;
    k = i + 1;
    term = (term * (n - i)) / (i + 1);
  }
  return k;
}

/** Two group results of the same tasks, as one (their rounds pooled): a re-measured cell. */
export function poolResults(first: GroupResult, second: GroupResult): GroupResult {
  const perRound = new Map<string, number[]>();
  for (const [name, values] of first.perRound) {
    perRound.set(name, [...values, ...(second.perRound.get(name) ?? [])]);
  }
  return { rounds: first.rounds + second.rounds, perRound, calls: first.calls };
}
