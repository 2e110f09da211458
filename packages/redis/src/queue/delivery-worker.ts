/**
 * The worker side of the delivery queue: BullMQ workers that deliver each job with the
 * reference sender, keep the shared channel state in Redis, record every attempt, retry on the
 * job's schedule, and park what cannot be delivered now. Killed mid-delivery, a worker's jobs
 * are taken over by another (BullMQ stalled-job recovery).
 */
import { createWebhookSender } from '@cspwatch/webhook-sender';
import { type MinimalJob, Queue, Worker } from 'bullmq';
import { connectWorker } from './connection';
import { DELIVER_JOB, type DeliveryJobData } from './jobs';
import { queueKeys } from './keys';
import { createJobProcessor } from './process-job';
import { expireParkedAlerts } from './release';
import { delayBeforeAttempt } from './retry-schedule';
import { STATELESS_STORE } from './stateless-store';
import { type DeliveryWorkerOptions, resolveWorkerOptions } from './worker-options';

/** A running worker; see {@link createDeliveryWorker}. */
export interface DeliveryWorker {
  /** Resolves once the worker is connected and taking jobs. */
  waitUntilReady(): Promise<void>;
  /** Stops taking jobs, waits for the ones in flight, and closes the connections. */
  close(): Promise<void>;
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
 * process.on('SIGTERM', () => worker.close());
 * ```
 */
export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const what = 'createDeliveryWorker';
  const { base, report, defaults } = resolveWorkerOptions(what, options);
  const keys = queueKeys(base.prefix, base.queueName);
  const retention = { maxEntries: base.historyMaxEntries, maxAgeMs: base.historyMaxAgeMs };
  // BullMQ's connection, and one for the worker's own commands (channel state, history,
  // parking) with auto-pipelining: the commands of concurrent deliveries share one write.
  const redis = connectWorker(base.connection, report);
  const state = connectWorker(base.connection, report, { enableAutoPipelining: true });
  // The processor keeps the channel state (one read before, one script after each attempt);
  // the sender signs and sends. Throws invalid_options (WebhookSenderError) now, not later.
  const sender = createWebhookSender({ ...options.sender, store: STATELESS_STORE });
  const maxStalledCount = options.maxStalledCount ?? defaults.maxStalledCount;
  const queue = new Queue(base.queueName, { connection: redis, prefix: base.prefix });
  queue.on('error', report);
  const processor = createJobProcessor({
    redis: state,
    queue,
    keys,
    retention,
    sender,
    channels: options.channels,
    maxStalledCount,
  });
  const worker = new Worker<DeliveryJobData>(base.queueName, (job) => processor.process(job), {
    connection: redis,
    prefix: base.prefix,
    concurrency: options.concurrency ?? defaults.concurrency,
    lockDuration: options.lockDurationMs ?? defaults.lockDurationMs,
    stalledInterval: options.stalledIntervalMs ?? defaults.stalledIntervalMs,
    // BullMQ would fail a job stalled more often than this, out of our sight (its failed set);
    // the processor parks it instead (worker_error), so BullMQ's own limit is never reached.
    maxStalledCount: Number.MAX_SAFE_INTEGER,
    settings: {
      // Retry `attemptsMade` (1 = the second attempt) waits the schedule's delay at that index.
      backoffStrategy: (attemptsMade: number, _type?: string, _error?: Error, job?: MinimalJob) => {
        const schedule = (job?.data as DeliveryJobData | undefined)?.schedule;
        return schedule ? delayBeforeAttempt(schedule, attemptsMade) : 0;
      },
    },
  });
  worker.on('error', report); // connection errors: ioredis reconnects and the worker resumes
  // A job whose last attempt threw (not a delivery failure: those park themselves) is parked.
  worker.on('failed', (job) => {
    if (job?.name === DELIVER_JOB && job.finishedOn) processor.parkFailedJob(job).catch(report);
  });
  const expiry = setInterval(() => {
    expireParkedAlerts(state, keys, base.parkedTtlMs, retention).catch(report);
  }, options.parkedExpiryIntervalMs ?? defaults.parkedExpiryIntervalMs);
  expiry.unref();
  return {
    waitUntilReady: async () => {
      await worker.waitUntilReady();
    },
    async close() {
      clearInterval(expiry);
      await worker.close();
      await queue.close().catch(() => {});
      await sender.close();
      state.disconnect();
      redis.disconnect();
    },
  };
}
