/**
 * Zero cost when off, for the delivery worker, counted in instructions: each build of
 * `@cspwatch/redis/queue` (with its tracing module, and with it stubbed out; see
 * src/uninstrumented-build.ts) runs in a worker process of its own under valgrind's callgrind,
 * which counts the instructions the process executes whatever else the machine is doing. Only
 * the delivery phase after a warm-up is counted (zeroed and dumped with `callgrind_control`),
 * and the build without tracing runs twice so that the spread of the measure itself (an A/A
 * pair) is printed beside the figure it judges.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startRedisServer } from '../../packages/redis/test/helpers/redis-server.js';
import { budget } from '../../test-budget.js';
import { startCountingReceiver } from './counting-receiver.js';
import { benchWorkload } from './redis-bench-queues.js';
import { type RunSetup, runDeliveries } from './redis-delivery-run.js';
import { standaloneDeployment } from './redis-deployment.js';
import { startWorkerProcess } from './redis-worker-pool.js';
import { formatRatio, type SectionResult, type TargetResult, table } from './report.js';
import {
  buildUninstrumented,
  QUEUE_PACKAGE,
  SENDER_PACKAGE,
  type StubbedPackage,
} from './uninstrumented-build.js';

const run = promisify(execFile);
const SECTION = 'tracing-off';
const TITLE = 'Tracing off: the delivery worker, in instructions';
/** The cost target of issue #25: within 3% of the build without instrumentation. */
const LIMIT = 1.03;
const TARGET =
  'tracing off: worker instructions per delivery, ours / the same built without its tracing (callgrind, a process each)';
/** The A/A pair must agree closer than the target it serves. */
const SPREAD_LIMIT = 0.01;

interface Plan {
  readonly warmUp: number;
  readonly deliveries: number;
  /** Processes in order; `untraced` twice gives the A/A pair. */
  readonly order: readonly ('traced' | 'untraced')[];
  readonly concurrency: number;
  readonly channels: number;
}

const FULL: Plan = {
  warmUp: 1_000,
  deliveries: 1_000,
  order: ['traced', 'untraced', 'untraced', 'traced'],
  // One job at a time, so that every process runs the same sequence of work: at concurrency 50
  // how jobs batch follows timing (bench/RESULTS.md has the A/A figures).
  concurrency: 1,
  channels: 100,
};
const QUICK: Plan = { ...FULL, warmUp: 200, deliveries: 300, order: ['traced', 'untraced'] };

/** Times the tracing-off path runs alone in each build, under callgrind. */
const PATH_ITERATIONS = 200_000;

/** A package's tracing module alone, bundled like the package (its stub in the other build). */
const tracingModuleOf = (pkg: StubbedPackage): StubbedPackage => ({
  ...pkg,
  name: `${pkg.name}-tracing-module`,
  entry: join('src', 'telemetry', 'tracing.ts'),
});

/**
 * Instructions the queue's and the sender's tracing modules add to one delivery with no
 * provider: the path alone (src/tracing-off-path-child.ts) in each build under callgrind, the
 * difference of the two counts over the iterations (node's start is the same in both).
 */
async function offPathInstructions(valgrind: string, dumps: string): Promise<number> {
  const child = join(dirname(fileURLToPath(import.meta.url)), 'tracing-off-path-child.ts');
  const count = async (instrumented: boolean) => {
    const queue = await buildUninstrumented(tracingModuleOf(QUEUE_PACKAGE), instrumented);
    const sender = await buildUninstrumented(tracingModuleOf(SENDER_PACKAGE), instrumented);
    const out = join(dumps, `path-${instrumented ? 'traced' : 'untraced'}`);
    await run(valgrind, [
      '-q',
      '--tool=callgrind',
      `--callgrind-out-file=${out}`,
      process.execPath,
      '--single-threaded',
      '--predictable-gc-schedule',
      '--import',
      'tsx',
      child,
      queue,
      sender,
      String(PATH_ITERATIONS),
    ]);
    return instructionsOf(out);
  };
  return ((await count(true)) - (await count(false))) / PATH_ITERATIONS;
}

/** What one process counted over its delivery phase. */
interface Count {
  readonly build: 'traced' | 'untraced';
  readonly instructions: number;
  readonly deliveries: number;
}

/** The first executable `command` found on PATH, or `undefined`. */
function which(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const path = join(dir, command);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here: the next directory
    }
  }
  return undefined;
}

/** The `summary:` (instructions) of a callgrind dump. */
function instructionsOf(file: string): number {
  const line = readFileSync(file, 'utf8')
    .split('\n')
    .find((text) => text.startsWith('summary:'));
  if (!line) throw new Error(`${SECTION}: no summary in ${file}`);
  return Number(line.slice('summary:'.length).trim());
}

/** Runs the tracing-off section (needs valgrind; reports the row as not measured without). */
export async function runTracingOffBench(quick: boolean): Promise<SectionResult> {
  const plan = quick ? QUICK : FULL;
  const valgrind = which('valgrind');
  const control = which('callgrind_control');
  if (!valgrind || !control) {
    const missing = 'not measured: valgrind is not installed (apt-get install valgrind)';
    return { title: TITLE, markdown: missing, targets: [ratioTarget(missing, false)] };
  }
  const modules = {
    traced: await buildUninstrumented(QUEUE_PACKAGE, true),
    untraced: await buildUninstrumented(QUEUE_PACKAGE),
  };
  const dumps = mkdtempSync(join(tmpdir(), 'cspwatch-callgrind-'));
  const redisServer = await startRedisServer();
  const receiver = await startCountingReceiver();
  const redis = standaloneDeployment(redisServer.url);
  const { channels, jobs } = benchWorkload(
    receiver.url,
    plan.channels,
    'bench-queue-secret-0123456789',
  );
  // Node runs much slower under callgrind; a guard against a hang, not a speed check.
  const setup: RunSetup = { redis, receiver, deadlineAt: Date.now() + budget(3_600_000) };
  const counts: Count[] = [];
  let offPath: number;
  try {
    offPath = await offPathInstructions(valgrind, dumps);
    for (const build of plan.order) {
      const worker = await startWorkerProcess(120_000, {
        command: valgrind,
        args: ['-q', '--tool=callgrind', `--callgrind-out-file=${join(dumps, 'callgrind.%p')}`],
        slowdown: 60,
        nodeArgs: [
          '--single-threaded',
          '--predictable-gc-schedule',
          '--random-seed=1',
          '--hash-seed=1',
        ],
      });
      try {
        const options = {
          kind: 'ours' as const,
          workers: [worker],
          concurrency: plan.concurrency,
          channels,
          module: modules[build],
        };
        await runDeliveries(setup, { ...options, jobs: jobs(plan.warmUp) });
        const pid = String(worker.pid);
        await runDeliveries(setup, {
          ...options,
          jobs: jobs(plan.deliveries),
          async around(phase) {
            await run(control, ['--zero', pid]);
            await phase();
            await run(control, ['--dump', pid]);
          },
        });
      } finally {
        await worker.disconnect();
      }
      // The `--dump` above is the process's first: part 1.
      const instructions = instructionsOf(join(dumps, `callgrind.${worker.pid}.1`));
      counts.push({ build, instructions, deliveries: plan.deliveries });
    }
  } finally {
    redis.close();
    await new Promise((resolve) => receiver.server.close(resolve));
    await redisServer.stop();
    rmSync(dumps, { recursive: true, force: true });
  }
  return tracingOffResult(counts, offPath);
}

const ratioTarget = (value: string, pass: boolean): TargetResult => ({
  section: SECTION,
  target: TARGET,
  value,
  limit: `<= ${LIMIT.toFixed(2)}x`,
  pass,
});
const perDelivery = (count: Count) => count.instructions / count.deliveries;
const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** The section's tables and targets from the counts of its processes. */
export function tracingOffResult(counts: readonly Count[], offPath: number): SectionResult {
  const of = (build: Count['build']) => counts.filter((count) => count.build === build);
  const traced = of('traced').map(perDelivery);
  const untraced = of('untraced').map(perDelivery);
  const ratio = mean(traced) / mean(untraced);
  const targets = [ratioTarget(formatRatio(ratio), ratio <= LIMIT)];
  if (untraced.length >= 2) {
    const spread = untraced[1]! / untraced[0]!;
    targets.push({
      section: SECTION,
      target: 'A/A: the build without tracing / itself in another process (the measure’s spread)',
      value: `${spread.toFixed(3)}x`,
      limit: `within ${(SPREAD_LIMIT * 100).toFixed(0)}% of 1.000x`,
      pass: Math.abs(spread - 1) <= SPREAD_LIMIT,
    });
  }
  const share = offPath / mean(untraced);
  targets.push({
    section: SECTION,
    target:
      "tracing off, the path alone: instructions the queue's and the sender's tracing modules add per delivery / the worker's instructions per delivery",
    value: `${Math.round(offPath).toLocaleString('en')} of ${(mean(untraced) / 1e6).toFixed(2)} M (${(share * 100).toFixed(3)}%)`,
    limit: `<= ${((LIMIT - 1) * 100).toFixed(0)}%`,
    pass: share <= LIMIT - 1,
  });
  const rows = counts.map((count, i) => [
    String(i + 1),
    count.build === 'traced' ? 'with its tracing module' : 'tracing module stubbed out',
    count.deliveries.toLocaleString('en'),
    `${(count.instructions / 1e9).toFixed(3)} G`,
    `${(perDelivery(count) / 1e6).toFixed(3)} M`,
  ]);
  const markdown = [
    table(['process', 'build', 'deliveries counted', 'instructions', 'per delivery'], rows),
    '',
    'Both builds are esbuild bundles of the same source, made the same way (src/uninstrumented-build.ts); `@opentelemetry/api` is installed and no tracer provider is registered. Each process is a bench worker process (src/redis-worker-child.ts) run under `valgrind --tool=callgrind`, with our worker at concurrency 1 (`--single-threaded` node) over 100 channels of a local receiver: a warm-up run, then `callgrind_control --zero`, a counted run, `callgrind_control --dump`. Instructions are those of the whole worker process (every thread: JIT, GC) over the counted run; redis-server and the receiver are other processes, not counted. The ratio is of the means per build; the A/A row compares the two processes of the same build.',
  ].join('\n');
  return { title: TITLE, markdown, targets };
}
