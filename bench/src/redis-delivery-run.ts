/**
 * One measured run of the Redis queue bench: enqueue jobs into a queue of its own, pause it,
 * start workers on it in some worker processes, resume, wait until the jobs are done (or the
 * receiver has a given count), and measure Redis commands and CPU (enqueue and delivery
 * apart, summed over the masters and node by node), the worker processes' CPU and the time
 * taken. On one redis-server or a Redis Cluster; bounded by a deadline.
 */
import { createDeliveryQueue } from '@cspwatch/redis/queue';
import { Queue } from 'bullmq';
import type { CountingReceiver } from './counting-receiver.js';
import {
  type BenchJob,
  enqueueJobs,
  findBullPrefixes,
  type JobTemplate,
} from './redis-bench-queues.js';
import type { RedisDeployment } from './redis-deployment.js';
import {
  addCosts,
  costOfRole,
  type NodeCost,
  nodeCostsBetween,
  type RedisCost,
  type WatchedCommands,
} from './redis-stats.js';
import type { WorkerProcess } from './redis-worker-pool.js';
import type { StartRequest } from './redis-worker-protocol.js';

/** What every run shares: Redis, the receiver and the section's deadline. */
export interface RunSetup {
  /** The redis-server or cluster the queues live on. */
  readonly redis: RedisDeployment;
  readonly receiver: CountingReceiver;
  /** Time (Date.now()) after which every wait fails. */
  readonly deadlineAt: number;
}

/** What a run does. */
export interface RunOptions
  extends Omit<StartRequest, 'type' | 'connection' | 'queueName' | 'prefix'> {
  readonly workers: readonly WorkerProcess[];
  readonly jobs: readonly BenchJob[];
  /** Enqueued with `createDeliveryQueue` when absent, else with a plain BullMQ `Queue`. */
  readonly template?: JobTemplate;
  /** Done when the receiver has this many more deliveries; default: when no job is left. */
  readonly receivedTarget?: number;
  /**
   * Done when this channel has this many alerts parked, read with the queue's `countParked`
   * every 50 ms (those reads count among the run's commands: one per 50 ms).
   */
  readonly parkedTarget?: { readonly channelId: string; readonly count: number };
  /** Wraps the delivery phase (MONITOR); its result is returned as `watched`. */
  readonly watch?: (phase: () => Promise<void>) => Promise<WatchedCommands>;
  /** Wraps the delivery phase (e.g. counts the worker's instructions over it). */
  readonly around?: (phase: () => Promise<void>) => Promise<void>;
}

/** What a run measured. */
export interface RunResult {
  readonly jobs: number;
  /** From resume until done. */
  readonly seconds: number;
  /** Of the enqueue phase. */
  readonly enqueueSeconds: number;
  /** Sum of the worker processes' CPU over the delivery phase. */
  readonly workerCpuSeconds: number;
  /** Summed over the masters. */
  readonly enqueue: RedisCost;
  readonly delivery: RedisCost;
  /** Each node's cost over both phases (the bench's own polls left out), masters first. */
  readonly nodes: readonly NodeCost[];
  /** The `watch` result (the bench's own polls included), if watched. */
  readonly watched: WatchedCommands | undefined;
  /** The bench's own polls in the delivery phase (one EXISTS each). */
  readonly ownPolls: number;
}

let runs = 0;

/** Polls `check` every `everyMs` until it holds; throws once `deadlineAt` has passed. */
async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  deadlineAt: number,
  detail: () => string | Promise<string> = () => '',
  everyMs = 10,
): Promise<void> {
  while (!(await check())) {
    if (Date.now() > deadlineAt) {
      throw new Error(`redis section: timed out waiting for ${what} ${await detail()}`.trim());
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Runs the jobs through the workers; stops the workers again, even on error. */
export async function runDeliveries(setup: RunSetup, options: RunOptions): Promise<RunResult> {
  const { redis, receiver, deadlineAt } = setup;
  runs += 1;
  const { workers, jobs, template, receivedTarget, parkedTarget, watch, around, ...worker } =
    options;
  // A prefix of its own: no channel state (failure counts, disabled flags) carries over.
  const place = {
    connection: redis.connection,
    prefix: `bench${runs}`,
    queueName: 'deliveries',
    ...(worker.shards === undefined ? {} : { shards: worker.shards }),
  };
  const running: WorkerProcess[] = [];
  const controls: Queue[] = [];
  try {
    const before = await redis.snapshot();
    const enqueueStarted = performance.now();
    await enqueueJobs(place, jobs, template, deadlineAt);
    const enqueueSeconds = (performance.now() - enqueueStarted) / 1000;
    const enqueued = await redis.snapshot();
    // Paused before any worker starts, so that starting them is not measured.
    for (const prefix of await findBullPrefixes(redis, place)) {
      controls.push(new Queue(place.queueName, { connection: redis.client, prefix }));
    }
    await Promise.all(controls.map((control) => control.pause()));
    for (const child of workers) {
      await child.request({ type: 'start', ...worker, ...place });
      running.push(child);
    }
    const cpuBefore = await Promise.all(workers.map((child) => child.cpuSeconds()));
    const receivedBefore = receiver.received();
    // One EXISTS per BullMQ queue and poll (a queue's keys share a slot), counted on the master
    // that holds the queue, so that each node's figures leave the bench's polls out.
    const polled = await Promise.all(
      controls.map(async (control) => {
        const keys = ['wait', 'active', 'delayed', 'prioritized'].map((s) => control.toKey(s));
        return { keys, node: await redis.masterOf(keys[0]!) };
      }),
    );
    const polls = new Map<string, { exists: number }>();
    const jobsLeft = async () => {
      const counts = await Promise.all(
        polled.map(({ keys, node }) => {
          const own = polls.get(node) ?? { exists: 0 };
          own.exists += 1;
          polls.set(node, own);
          return redis.client.exists(...keys);
        }),
      );
      return counts.reduce((sum, count) => sum + count, 0);
    };
    const leftDetail = async () => {
      const counts = await Promise.all(
        controls.map((control) => control.getJobCounts('wait', 'active', 'delayed', 'failed')),
      );
      const [delayed] = await controls[0]!.getDelayed(0, 0);
      const why = delayed?.failedReason ? `; a delayed job failed: ${delayed.failedReason}` : '';
      return `(${jobs.length} jobs, ${workers.length} worker(s), left: ${JSON.stringify(counts)}${why})`;
    };
    const arrived = () => receiver.received() - receivedBefore;
    const phase = async () => {
      await Promise.all(controls.map((control) => control.resume()));
      if (parkedTarget) {
        const queue = createDeliveryQueue({ ...place, commandTimeoutMs: 30_000 });
        try {
          const parked = () => queue.countParked(parkedTarget.channelId);
          await until(
            'the parked alerts',
            async () => (await parked()) >= parkedTarget.count,
            deadlineAt,
            async () => `(${await parked()} of ${parkedTarget.count} parked)`,
            50,
          );
        } finally {
          await queue.close();
        }
      } else if (receivedTarget === undefined) {
        await until('the jobs', async () => (await jobsLeft()) === 0, deadlineAt, leftDetail);
      } else {
        await until(
          'the deliveries',
          () => arrived() >= receivedTarget,
          deadlineAt,
          () => `(${arrived()} of ${receivedTarget} arrived)`,
        );
      }
    };
    const ready = await redis.snapshot();
    const started = performance.now();
    let watched: WatchedCommands | undefined;
    if (watch) watched = await watch(phase);
    else if (around) await around(phase);
    else await phase();
    const seconds = (performance.now() - started) / 1000;
    const done = await redis.snapshot();
    const cpuAfter = await Promise.all(workers.map((child) => child.cpuSeconds()));
    let completed = 0;
    while (running.length > 0) {
      completed += (await running.pop()!.request({ type: 'stop' })).completed;
    }
    const delivered = worker.kind === 'floor' ? completed : arrived();
    if (receivedTarget === undefined && !parkedTarget && delivered < jobs.length) {
      throw new Error(
        `redis section: ${delivered} of ${jobs.length} jobs delivered (${worker.kind})`,
      );
    }
    const enqueueNodes = nodeCostsBetween(before, enqueued);
    const deliveryNodes = nodeCostsBetween(ready, done, polls);
    const ownPolls = [...polls.values()].reduce((sum, own) => sum + own.exists, 0);
    return {
      jobs: jobs.length,
      seconds,
      enqueueSeconds,
      workerCpuSeconds: cpuAfter.reduce((sum, cpu, i) => sum + cpu - cpuBefore[i]!, 0),
      enqueue: costOfRole(enqueueNodes, 'master'),
      delivery: costOfRole(deliveryNodes, 'master'),
      nodes: deliveryNodes.map((entry, i) => ({
        ...entry,
        cost: addCosts(enqueueNodes[i]!.cost, entry.cost),
      })),
      watched,
      ownPolls,
    };
  } finally {
    // After an error: stop what still runs (a stuck stop is ended with the process later).
    await Promise.allSettled(running.map((child) => child.request({ type: 'stop' }, 15_000)));
    await Promise.allSettled(controls.map((control) => control.close()));
  }
}
