/**
 * The worker side of the delivery queue: BullMQ workers that deliver each job with the
 * reference sender on the shared Redis channel state, cap each channel's attempts in flight,
 * record every attempt, retry on the job's schedule, and park what cannot be delivered now.
 * Killed mid-delivery, a worker's jobs are taken over by another (BullMQ stalled-job recovery).
 */
import { createWebhookSender, DEFAULT_SENDER_OPTIONS } from '@cspwatch/webhook-sender';
import { type Job, type MinimalJob, type Queue, Worker } from 'bullmq';
import { createRedisChannelStateStore } from '../stores/channel-state-store';
import { createQueueTracing } from '../telemetry/tracing';
import { connectWorker } from './connection';
import type { DeliveryWorkerHealth } from './health';
import { createInFlightSlots } from './in-flight';
import { DELIVER_JOB, type DeliveryJobData } from './jobs';
import { queueKeys } from './keys';
import { createJobProcessor, isAttemptFailure } from './process-job';
import { expireParkedAlerts } from './release';
import { delayBeforeAttempt } from './retry-schedule';
import { openShardQueues } from './shard-queues';
import { createStateHandOff } from './state-hand-off';
import { type DeliveryWorkerOptions, resolveWorkerOptions } from './worker-options';

/** A running worker; see {@link createDeliveryWorker}. */
export interface DeliveryWorker {
  /** Resolves once the worker is connected and taking jobs. */
  waitUntilReady(): Promise<void>;
  /**
   * Stops taking jobs, waits for the deliveries in flight (at most `closeTimeoutMs`), and closes
   * the connections. Call it on SIGTERM for a rolling restart that loses and repeats nothing.
   */
  close(): Promise<void>;
  /**
   * This worker's health now, read from memory (no Redis call): its connections, when it last
   * delivered, its jobs in flight and the shards it takes jobs from. Serve it with
   * `healthHandler` for Kubernetes probes.
   */
  health(): DeliveryWorkerHealth;
}

/**
 * Starts a delivery worker in this process. Run one per process (or several, each with its
 * own `concurrency`); any number of processes may share one Redis. Options are validated here.
 *
 * @example
 * ```ts
 * const worker = createDeliveryWorker({
 *   connection: process.env.REDIS_URL!,
 *   channels: (id) => db.webhookChannels.find(id), // { id, url, secret }
 *   concurrency: 50,
 * });
 * process.on('SIGTERM', () => worker.close().then(() => process.exit(0)));
 * ```
 */
export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const what = 'createDeliveryWorker';
  const { base, report, settings } = resolveWorkerOptions(what, options);
  const keys = queueKeys(base.prefix, base.queueName);
  const retention = { maxEntries: base.historyMaxEntries, maxAgeMs: base.historyMaxAgeMs };
  // BullMQ's connection, and one for the worker's own commands (channel state, slots, history,
  // parking) with auto-pipelining: the commands of concurrent deliveries share one write.
  const redis = connectWorker(base.connection, report);
  const state = connectWorker(base.connection, report, { enableAutoPipelining: true });
  // The sender decides (its store's one atomic step counts each attempt); Redis remembers.
  // Throws invalid_options (WebhookSenderError) now, not later.
  const store = createRedisChannelStateStore({ redis: state, prefix: keys.channelStatePrefix });
  const tracerProvider = base.tracerProvider ? { tracerProvider: base.tracerProvider } : {};
  // The sender's read before each attempt comes with the job's slot script (one round trip less).
  const handOff = createStateHandOff(store);
  const sender = createWebhookSender({
    ...tracerProvider,
    ...settings.sender,
    store: handOff.store,
  });
  const tracing = createQueueTracing(base.queueName, base.tracerProvider);
  const { lockDurationMs, closeTimeoutMs, concurrency } = settings;
  const queues = openShardQueues(redis, base.prefix, base.queueName, base.shards, report);
  let closing: Promise<void> | undefined;
  // An attempt ends within the sender's timeout; past its lock too, BullMQ has given the job
  // to another worker, so a slot held that long belongs to a dead one.
  const leaseMs = (settings.sender.timeoutMs ?? DEFAULT_SENDER_OPTIONS.timeoutMs) + lockDurationMs;
  const slots = createInFlightSlots({
    redis: state,
    queues,
    keys,
    cap: settings.maxInFlightPerChannel,
    leaseMs,
  });
  const processor = createJobProcessor({
    redis: state,
    queues,
    keys,
    retention,
    sender,
    store,
    channels: settings.channels,
    slots,
    hand: handOff.hand,
    report,
    closing: () => closing !== undefined,
    holdMs: leaseMs,
    observer: settings.observer,
  });
  let inFlight = 0;
  let idle: (() => void) | undefined; // close()'s wait for the jobs in flight
  const processJob = async (job: Job<DeliveryJobData>, token?: string) => {
    inFlight++;
    try {
      return await tracing.process(job, () => processor.process(job, token));
    } finally {
      if (--inFlight === 0) idle?.();
    }
  };
  const whenIdle = () =>
    inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve));
  // One BullMQ worker per shard, sharing this process's concurrency.
  const workers = queues.all.map(
    (queue) =>
      new Worker<DeliveryJobData>(base.queueName, processJob, {
        connection: redis,
        prefix: queue.opts.prefix ?? base.prefix,
        concurrency: Math.max(1, Math.ceil(concurrency / base.shards)),
        lockDuration: lockDurationMs,
        stalledInterval: settings.stalledIntervalMs,
        // A job whose workers die under it more often than this is failed by BullMQ, then parked.
        maxStalledCount: settings.maxStalledCount,
        settings: {
          // Retry `attemptsMade` (1 = the second attempt) waits the schedule's delay at that index.
          backoffStrategy: (attemptsMade: number, _t?: string, _e?: Error, job?: MinimalJob) => {
            const schedule = (job?.data as DeliveryJobData | undefined)?.schedule;
            return schedule ? delayBeforeAttempt(schedule, attemptsMade) : 0;
          },
        },
      }),
  );
  for (const worker of workers) {
    worker.on('error', report); // connection errors: ioredis reconnects and the worker resumes
    // A job BullMQ failed for good (not a delivery failure: those park themselves) is parked.
    worker.on('failed', (job, error) => {
      // A failed attempt is in the history; any other error (Redis, mid-way) is told here.
      if (!isAttemptFailure(error)) report(error);
      if (job?.name === DELIVER_JOB && job.finishedOn) processor.parkFailedJob(job).catch(report);
    });
  }
  // Housekeeping: expire old parked alerts, and park failed jobs whose 'failed' event was lost
  // (their worker died before parking them).
  const housekeeping = setInterval(() => {
    expireParkedAlerts(state, keys, base.parkedTtlMs, retention).catch(report);
    for (const queue of queues.all) parkFailedJobs(queue, processor.parkFailedJob).catch(report);
  }, settings.parkedExpiryIntervalMs);
  housekeeping.unref();
  return {
    waitUntilReady: async () => {
      await Promise.all(workers.map((worker) => worker.waitUntilReady()));
    },
    health() {
      const connected = { jobs: redis.status === 'ready', state: state.status === 'ready' };
      const running = workers.filter((worker) => worker.isRunning()).length;
      const shards = { total: workers.length, running };
      const lastSuccess = processor.lastSuccessAt();
      return {
        ok: connected.jobs && connected.state && running === workers.length && !closing,
        closing: closing !== undefined,
        connected,
        lastSuccessAt: lastSuccess === null ? null : new Date(lastSuccess).toISOString(),
        inFlight,
        shards,
      };
    },
    close() {
      closing ??= (async () => {
        clearInterval(housekeeping);
        // Paused, not closed, while waiting: BullMQ answers a second close() with the first
        // one's promise, so a close() waiting for the jobs could not be forced any more.
        await Promise.all(workers.map((worker) => worker.pause(true)));
        const drained = await within(whenIdle(), closeTimeoutMs);
        await Promise.all(workers.map((worker) => worker.close(!drained)));
        await queues.close();
        // A delivery still in flight keeps its pool open until it ends: that is not waited for.
        const pools = sender.close();
        if (drained) await pools;
        else pools.catch(report);
        state.disconnect();
        redis.disconnect();
      })();
      return closing;
    },
  };
}

/** Parks up to one batch of failed delivery jobs. */
async function parkFailedJobs(
  queue: Queue,
  parkFailedJob: (job: Job<DeliveryJobData>) => Promise<void>,
): Promise<void> {
  const failed = (await queue.getFailed(0, 99)) as Job<DeliveryJobData>[];
  for (const job of failed) {
    if (job?.name === DELIVER_JOB) await parkFailedJob(job);
  }
}

/** Resolves `true` once `work` settled, or `false` after `timeoutMs`, whichever comes first. */
async function within(work: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const settled = await Promise.race([work.then(() => true), timedOut]);
  clearTimeout(timer);
  return settled;
}
