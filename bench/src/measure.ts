/**
 * Timing in interleaved rounds with paired ratios. Every task of a group runs once per round,
 * as one batch of calls, in an order rotated each round so no task always goes first; the
 * first round is a discarded warm-up. Each batch is timed twice at once: wall clock
 * (`process.hrtime.bigint()`) and this process's CPU time (`process.cpuUsage()`, user +
 * system, every thread: the main thread, the libuv pool that runs Web Crypto, GC). A task's
 * time is the median over rounds of its time per call; a ratio of two tasks is the median over
 * rounds of their per-round ratio, so drift of the machine between rounds (other work, CPU
 * frequency, a noisy neighbour) cancels out.
 *
 * Each task's batch runs in a loop function compiled for that task alone (`new Function`, as
 * benchmark.js does), so the loop's call site only ever sees one callee and stays
 * monomorphic: one loop shared by every task would make that call site megamorphic and give
 * whichever task ran first an advantage that has nothing to do with its code.
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

/** Per-round times: per task, the time per call (ns) of each timed round, in round order. */
export interface Timings {
  perRound: ReadonlyMap<string, readonly number[]>;
}

/** What one group measured: wall time per call by round (`perRound`), and CPU time. */
export interface GroupResult extends Timings {
  rounds: number;
  /** Calls per batch, by task. */
  calls: ReadonlyMap<string, number>;
  /** The same batches timed in CPU time of this process (all threads), per call. */
  cpu: Timings;
}

/**
 * A full GC once per group, before its discarded warm-up round; and before every batch of a
 * group whose calls are all slow (at least `SLOW_CALL_NS` each: the 1 MB cells, the Web group
 * from 64 KB), so that no such batch pays for the megabytes of garbage the previous task left
 * (a 1 MB JSON.parse). Not between batches of fast calls: a forced full GC frees short-lived
 * objects V8 embeds weakly in optimised code, which deoptimises it (`--trace-deopt`: "weak
 * objects", dozens of times per pass in `createHmac`, `update` and our verify functions), so
 * each such batch began in unoptimised code and the larger function paid more to re-optimise.
 * Next to a call of 100 µs or more, re-optimising costs nothing. Exposed at run time: the bench
 * needs no flag.
 */
const fullGc = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** A group whose every call is at least this slow (ns, from its batch size) gets a GC per batch. */
const SLOW_CALL_NS = 100_000;

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';

type Loop = (fn: () => unknown, calls: number) => unknown;

let loopsCompiled = 0;

/**
 * A batch loop of its own for one task. The source carries a serial number so that V8's
 * cache of compiled `new Function` sources cannot hand back a shared function (and with it
 * shared call-site feedback).
 */
function compileLoop(isAsync: boolean): Loop {
  loopsCompiled += 1;
  const call = isAsync ? 'await fn()' : 'fn()';
  return new Function(
    `return ${isAsync ? 'async ' : ''}function batch${loopsCompiled}(fn, calls) {\n` +
      `  for (let call = 0; call < calls; call += 1) ${call};\n}`,
  )() as Loop;
}

/** One batch: wall and CPU time of `calls` calls, in ns. */
async function timeBatch(loop: Loop, fn: () => unknown, calls: number) {
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  await loop(fn, calls);
  const wall = Number(process.hrtime.bigint() - start);
  const cpu = process.cpuUsage(cpuStart);
  return { wall, cpu: (cpu.user + cpu.system) * 1000 };
}

/** This process's CPU time so far, in ns (all threads). */
const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
};

/**
 * Warms a task up, then sizes its batch: doubles the calls until a batch takes batchMs / 4.
 * The warm-up runs until the process has spent 2 x batchMs of CPU time on it (at most
 * 10 x batchMs of wall time): measured on the wall clock alone, a busy machine would cut the
 * warm-up of a fresh process short, before the optimising compiler has caught up.
 */
async function calibrate(task: TimedTask, batchMs: number) {
  const first = task.fn();
  const isAsync = isThenable(first);
  if (isAsync) await first;
  const loop = compileLoop(isAsync);
  const target = batchMs * 1e6;
  const cpuUntil = cpuNow() + 2 * target;
  const wallUntil = process.hrtime.bigint() + BigInt(10 * target);
  // Chunks of 1, 2, 4, ... 64 calls: few clock reads for a fast task, no overshoot for a slow one.
  for (let chunk = 1; cpuNow() < cpuUntil && process.hrtime.bigint() < wallUntil; ) {
    await loop(task.fn, chunk);
    chunk = Math.min(chunk * 2, 64);
  }
  for (let calls = 1; ; calls *= 2) {
    const { wall } = await timeBatch(loop, task.fn, calls);
    if (wall >= target / 4 || calls >= 2 ** 24) {
      return { loop, calls: Math.max(1, Math.round((calls * target) / wall)) };
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
  const wall = new Map<string, number[]>(tasks.map((task) => [task.name, []]));
  const cpu = new Map<string, number[]>(tasks.map((task) => [task.name, []]));
  // Both sides of a ratio get the same treatment: the group's fastest call decides.
  const gcEachBatch = sized.every(({ calls }) => (budget.batchMs * 1e6) / calls >= SLOW_CALL_NS);
  fullGc();
  for (let round = 0; round <= budget.rounds; round += 1) {
    for (let index = 0; index < sized.length; index += 1) {
      const { task, loop, calls } = sized[(round + index) % sized.length]!;
      if (gcEachBatch) fullGc();
      const ns = await timeBatch(loop, task.fn, calls);
      if (round === 0) continue;
      wall.get(task.name)!.push(ns.wall / calls);
      cpu.get(task.name)!.push(ns.cpu / calls);
    }
  }
  const calls = new Map(sized.map(({ task, calls }) => [task.name, calls]));
  return { rounds: budget.rounds, perRound: wall, calls, cpu: { perRound: cpu } };
}

/** A task's time per call in ns: the median over rounds; NaN if the group has no such task. */
export function timeOf(result: Timings, name: string): number {
  const values = result.perRound.get(name);
  return values ? median(values) : Number.NaN;
}

/** Per-round ratios `numerator / denominator`, paired within each round, sorted. */
function pairedRatios(result: Timings, numerator: string, denominator: string): number[] {
  const top = result.perRound.get(numerator);
  const bottom = result.perRound.get(denominator);
  if (!top || !bottom) return [];
  return top.map((value, round) => value / bottom[round]!).sort((a, b) => a - b);
}

/** The median over rounds of the per-round ratio of two tasks; NaN if either is missing. */
export function ratioOf(result: Timings, numerator: string, denominator: string): number {
  const ratios = pairedRatios(result, numerator, denominator);
  return ratios.length > 0 ? median(ratios) : Number.NaN;
}

/** The interquartile range of the per-round ratios: [25th, 75th percentile]. */
export function ratioQuartiles(
  result: Timings,
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
  result: Timings,
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

/** Per task, the rounds of `first` followed by those of `second`. */
function poolTimings(first: Timings, second: Timings): Timings {
  const perRound = new Map<string, number[]>();
  for (const [name, values] of first.perRound) {
    perRound.set(name, [...values, ...(second.perRound.get(name) ?? [])]);
  }
  return { perRound };
}

/** Two group results of the same tasks, as one (their rounds pooled): a re-measured cell. */
export function poolResults(first: GroupResult, second: GroupResult): GroupResult {
  return {
    ...poolTimings(first, second),
    rounds: first.rounds + second.rounds,
    calls: first.calls,
    cpu: poolTimings(first.cpu, second.cpu),
  };
}
