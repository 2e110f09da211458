/**
 * Timing with mitata's `measure` (batched samples, so sub-microsecond calls are not swamped by
 * the timer), run in interleaved rounds: every task of a group is measured once per round, in
 * the same order, and a task's figure is the median over rounds of its per-round median time
 * per call. Interleaving spreads background load over all tasks alike, so ratios taken within
 * one group are far steadier than absolute times on a shared machine.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { measure } from 'mitata';
import { median } from './report.js';

/** One function to time; it may return a promise (awaited by mitata). */
export interface TimedTask {
  name: string;
  fn: () => unknown;
}

/** How long to measure: rounds per group and CPU time per task per round. */
export interface MeasureBudget {
  rounds: number;
  minCpuTimeMs: number;
  /** The clock, in ns: {@link cpuNow} by default. */
  now?: () => number;
}

/**
 * Process CPU time in nanoseconds (all threads, so Web Crypto's thread-pool work counts).
 * On a shared machine wall time includes time the process was not scheduled at all; CPU time
 * does not, which keeps ratios steady while other work runs. `--wall` switches back.
 */
export function cpuNow(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) * 1_000;
}

/** Full run: enough samples for stable ratios, within the 5-minute budget on 2 cores. */
export const FULL_BUDGET: MeasureBudget = Object.freeze({ rounds: 9, minCpuTimeMs: 60 });
/** `--quick`: checks that everything runs; the figures are rough. */
export const QUICK_BUDGET: MeasureBudget = Object.freeze({ rounds: 1, minCpuTimeMs: 15 });

/**
 * A full GC, run before each task's measurement so that no task pays for the garbage the
 * previous one left (a 1 MB JSON.parse leaves megabytes). Exposed at run time, so the bench
 * needs no `--expose-gc` flag.
 */
const fullGc = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** Measures every task in interleaved rounds; returns nanoseconds per call, by task name. */
export async function measureGroup(
  tasks: readonly TimedTask[],
  budget: MeasureBudget,
): Promise<Map<string, number>> {
  const perRound = new Map<string, number[]>(tasks.map((task) => [task.name, []]));
  // Warm-up: let the JIT settle every task before any is timed (up to 300 calls or 50 ms each).
  for (const task of tasks) {
    const until = performance.now() + 50;
    for (let call = 0; call < 300 && performance.now() < until; call += 1) await task.fn();
  }
  for (let round = 0; round < budget.rounds; round += 1) {
    for (const task of tasks) {
      // The task itself is timed (no wrapper call); mitata awaits a returned promise.
      const stats = await measure(task.fn, {
        ...(budget.now ? { now: budget.now } : {}),
        min_cpu_time: budget.minCpuTimeMs * 1e6,
        min_samples: 8,
        // mitata batches calls under 65 µs; its default of 4,096 calls a sample would make
        // a 50 µs call's 8 samples take 1.6 s. 256 calls keep a sample well above the clock's
        // cost and resolution (~1 µs) and the whole run within budget.
        batch_samples: 256,
        gc: fullGc,
        inner_gc: false,
        warmup_samples: 2,
      });
      perRound.get(task.name)!.push(stats.p50);
    }
  }
  return new Map([...perRound].map(([name, values]) => [name, median(values)]));
}
