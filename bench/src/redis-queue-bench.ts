import { startRedisServer } from '../../packages/redis/test/helpers/redis-server.js';
import { budget } from '../../test-budget.js';
import { startCountingReceiver } from './counting-receiver.js';
import { pinRedisApart, unpinSelf } from './cpu-pinning.js';
import { startHangingReceiver } from './hanging-receiver.js';
import { benchWorkload, readJobTemplate } from './redis-bench-queues.js';
import {
  type RunOptions,
  type RunResult,
  type RunSetup,
  runDeliveries,
} from './redis-delivery-run.js';
import { standaloneDeployment } from './redis-deployment.js';
import { measureFairness } from './redis-fairness.js';
import { measureParking } from './redis-parking.js';
import { BULLMQ_PART, partOfKey, perDeliveryParts } from './redis-queue-parts.js';
import {
  buildRedisQueueResult,
  type RedisBenchPlan,
  SETUPS,
  type SetupKey,
} from './redis-queue-result.js';
import { watchCommands } from './redis-stats.js';
import { startWorkerProcesses, type WorkerProcess } from './redis-worker-pool.js';
import type { SectionResult } from './report.js';

const FULL: RedisBenchPlan = {
  concurrency: 50,
  // Enough channels that a limit on deliveries in flight per channel never binds.
  channels: 100,
  deliveries: 2_000,
  rounds: 3,
  warmUp: 2_000,
  // Runs longer than two of the hanging channel's timeouts (so they take in its disable and
  // parking), and five rounds: shorter runs left the ratio to the machine's noise.
  fairPerChannel: 600,
  fairRounds: 5,
  parkRounds: 3,
  sample: 200,
  // A guard against a hang, not a speed check: a busy shared machine runs the section slowly.
  budgetMs: 600_000,
};
const QUICK: RedisBenchPlan = {
  ...FULL,
  deliveries: 400,
  rounds: 1,
  warmUp: 150,
  fairPerChannel: 20,
  fairRounds: 1,
  parkRounds: 1,
  sample: 100,
  budgetMs: 60_000,
};

/** Runs the Redis queue section. */
export async function runRedisQueueBench(quick: boolean): Promise<SectionResult> {
  const plan = quick ? QUICK : FULL;
  const redisServer = await startRedisServer();
  const receiver = await startCountingReceiver();
  const hanging = await startHangingReceiver();
  const redis = standaloneDeployment(redisServer.url);
  const { channels, alert, jobs } = benchWorkload(
    receiver.url,
    plan.channels,
    'bench-queue-secret-0123456789',
  );
  let processes: WorkerProcess[] = [];
  try {
    // 4 processes for our worker, 1 for the plain worker, 1 for the floor; each stays up.
    processes = await startWorkerProcesses(6);
    // The budget runs from here: starting the processes is not part of the section's work.
    // Scaled like the tests' budgets (CSPWATCH_TEST_TIME_SCALE) for a busy machine.
    const setup: RunSetup = { redis, receiver, deadlineAt: Date.now() + budget(plan.budgetMs) };
    const pinning = await pinRedisApart(
      redis.client,
      processes.map((child) => child.pid ?? 0),
    );
    const ours = processes.slice(0, 4);
    const kindProcess = { plain: processes[4]!, floor: processes[5]! };
    const template = await readJobTemplate(redis, jobs(1)[0]!);
    const runOf = (
      kind: 'ours' | 'plain' | 'floor',
      workers: WorkerProcess[],
      count: number,
      extra: Partial<RunOptions> = {},
    ) =>
      runDeliveries(setup, {
        kind,
        workers,
        concurrency: plan.concurrency,
        channels,
        jobs: jobs(count),
        ...(kind === 'ours' ? {} : { template }),
        ...extra,
      });
    // A fresh worker process spends much more CPU per delivery on its first few thousand
    // deliveries (JIT, heap growth): every process warms up first, all at once.
    await Promise.all([
      ...ours.map((child) => runOf('ours', [child], plan.warmUp)),
      runOf('plain', [kindProcess.plain], plan.warmUp),
      runOf('floor', [kindProcess.floor], plan.warmUp),
    ]);
    const results = new Map<SetupKey, RunResult[]>(SETUPS.map((s) => [s.key, []]));
    // How long a job is in flight, ms, in the latest run of our 1-process worker and of the
    // floor; the paced floor's processor waits the difference. `ours1` and `floor` run before
    // `pacedFloor` in the first round (SETUPS order) and set these anew every round.
    const inFlightMs = (run: RunResult) => (plan.concurrency * run.seconds * 1000) / run.jobs;
    let ourJobMs = 0;
    let floorJobMs = 0;
    for (let round = 0; round < plan.rounds; round += 1) {
      // Rotate which of our processes serve 1 and 2 workers, and reverse the order every other
      // round, so that neither one process's warmth nor drift of the machine favours a setup.
      const rotated = [...ours.slice(round % 4), ...ours.slice(0, round % 4)];
      const order = round % 2 === 0 ? SETUPS : [...SETUPS].reverse();
      for (const s of order) {
        const workers = s.kind === 'ours' ? rotated.slice(0, s.processes) : [kindProcess[s.kind]];
        const wait = Math.max(0, ourJobMs - floorJobMs);
        const extra = s.key === 'pacedFloor' ? { processorWaitMs: wait } : {};
        const run = await runOf(s.kind, workers, plan.deliveries, extra);
        if (s.key === 'ours1') ourJobMs = inFlightMs(run);
        if (s.key === 'floor') floorJobMs = inFlightMs(run);
        results.get(s.key)!.push(run);
      }
    }
    const fairness = await measureFairness(setup, {
      worker: ours[0]!,
      hanging,
      concurrency: plan.concurrency,
      perChannel: plan.fairPerChannel,
      rounds: plan.fairRounds,
      alert,
    });
    const parking = await measureParking(setup, {
      worker: ours[0]!,
      hanging,
      alert,
      concurrency: plan.concurrency,
      rounds: plan.parkRounds,
    });
    const monitored = await runOf('ours', [ours[0]!], plan.sample, {
      watch: (phase) => watchCommands(redisServer.url, phase, partOfKey),
    });
    const parts = perDeliveryParts(monitored, BULLMQ_PART);
    const roundTrips = parts.roundTrips;
    return buildRedisQueueResult({
      results,
      fairness,
      parking,
      roundTrips,
      parts,
      plan,
      template,
      pinning,
    });
  } finally {
    await unpinSelf();
    await Promise.all(processes.map((child) => child.kill()));
    redis.close();
    await hanging.close();
    await new Promise((resolve) => receiver.server.close(resolve));
    await redisServer.stop();
  }
}
