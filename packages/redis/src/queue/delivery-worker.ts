/**
 * The worker side of the delivery queue: BullMQ workers that deliver each job with the
 * reference sender on the shared Redis channel state, record every attempt, retry on the
 * job's schedule, and park what cannot be delivered now. Killed mid-delivery, a worker's jobs
 * are taken over by another (BullMQ stalled-job recovery).
 */
import { createWebhookSender } from '@cspwatch/webhook-sender';
import { type MinimalJob, Queue, Worker } from 'bullmq';
import { createRedisChannelStateStore } from '../channel-state-store.js';
import { type RedisOptionIssue, throwIfIssues } from '../errors.js';
import { connectWorker } from './connection.js';
import { DELIVER_JOB, type DeliveryJobData } from './jobs.js';
import { queueKeys } from './keys.js';
import {
  checkInteger,
  checkOptionsObject,
  DELIVERY_QUEUE_DEFAULTS,
  type DeliveryWorkerOptions,
  resolveBaseOptions,
} from './options.js';
import { createJobProcessor } from './process-job.js';
import { expireParkedAlerts } from './release.js';
import { delayBeforeAttempt } from './retry-schedule.js';

/** A running worker; see {@link createDeliveryWorker}. */
export interface DeliveryWorker {
  /** Resolves once the worker is connected and taking jobs. */
  waitUntilReady(): Promise<void>;
  /** Stops taking jobs, waits for the ones in flight, and closes the connections. */
  close(): Promise<void>;
}

const WORKER_KEYS = [
  'channels',
  'concurrency',
  'sender',
  'lockDurationMs',
  'stalledIntervalMs',
  'maxStalledCount',
  'parkedExpiryIntervalMs',
  'onError',
];

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
  checkOptionsObject(what, options);
  const issues: RedisOptionIssue[] = [];
  const base = resolveBaseOptions(options, WORKER_KEYS, issues);
  if (typeof options.channels !== 'function') {
    issues.push({
      path: 'channels',
      message: 'is required: a function (channelId) => { id, url, secret }',
    });
  }
  checkInteger(issues, 'concurrency', options.concurrency, 1, 10_000);
  checkInteger(issues, 'lockDurationMs', options.lockDurationMs, 100, 3_600_000);
  checkInteger(issues, 'stalledIntervalMs', options.stalledIntervalMs, 100, 3_600_000);
  checkInteger(issues, 'maxStalledCount', options.maxStalledCount, 1, 1_000);
  checkInteger(issues, 'parkedExpiryIntervalMs', options.parkedExpiryIntervalMs, 100, 86_400_000);
  if (
    options.sender !== undefined &&
    (typeof options.sender !== 'object' || options.sender === null)
  ) {
    issues.push({ path: 'sender', message: 'must be an object of webhook sender options' });
  } else if (options.sender && 'store' in options.sender) {
    issues.push({
      path: 'sender.store',
      message: 'is set by the worker (the shared Redis store); remove it',
    });
  }
  if (options.onError !== undefined && typeof options.onError !== 'function') {
    issues.push({ path: 'onError', message: 'must be a function (error) => void' });
  }
  throwIfIssues(what, issues);
  const report = (error: unknown) => {
    try {
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // a throwing hook must not stop the worker
    }
  };
  const defaults = DELIVERY_QUEUE_DEFAULTS;
  const keys = queueKeys(base.prefix, base.queueName);
  const retention = { maxEntries: base.historyMaxEntries, maxAgeMs: base.historyMaxAgeMs };
  // BullMQ's connection, and one for the worker's own commands (channel state, history,
  // parking) with auto-pipelining: the commands of concurrent deliveries share one write.
  const redis = connectWorker(base.connection, report);
  const state = connectWorker(base.connection, report, { enableAutoPipelining: true });
  const store = createRedisChannelStateStore({ redis: state, prefix: keys.channelStatePrefix });
  // Throws invalid_options (WebhookSenderError) now, not on the first job.
  const sender = createWebhookSender({ ...options.sender, store });
  const queue = new Queue(base.queueName, { connection: redis, prefix: base.prefix });
  queue.on('error', report);
  const processor = createJobProcessor({
    redis: state,
    queue,
    keys,
    retention,
    sender,
    channels: options.channels,
  });
  const worker = new Worker<DeliveryJobData>(base.queueName, (job) => processor.process(job), {
    connection: redis,
    prefix: base.prefix,
    concurrency: options.concurrency ?? defaults.concurrency,
    lockDuration: options.lockDurationMs ?? defaults.lockDurationMs,
    stalledInterval: options.stalledIntervalMs ?? defaults.stalledIntervalMs,
    maxStalledCount: options.maxStalledCount ?? defaults.maxStalledCount,
    settings: {
      // Retry `attemptsMade` (1 = the second attempt) waits the schedule's delay at that index.
      backoffStrategy: (attemptsMade: number, _type?: string, _error?: Error, job?: MinimalJob) => {
        const schedule = (job?.data as DeliveryJobData | undefined)?.schedule;
        return schedule ? delayBeforeAttempt(schedule, attemptsMade) : 0;
      },
    },
  });
  worker.on('error', report); // connection errors: ioredis reconnects and the worker resumes
  // A job BullMQ gave up on (stalled too often, or an error on its last attempt) is parked.
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
