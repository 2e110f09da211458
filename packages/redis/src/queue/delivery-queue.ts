/**
 * The producer and admin side of the delivery queue: hand alerts to the queue, re-enable a
 * channel and release its parked alerts, read the history. Every call fails within
 * `commandTimeoutMs` with `redis_unavailable` when Redis is down: nothing is dropped silently.
 */
import type { ChannelState } from '@cspwatch/webhook-sender';
import type { CspwatchEvent } from '@cspwatch/webhooks';
import { Queue } from 'bullmq';
import { createRedisChannelStateStore } from '../channel-state-store.js';
import { CspwatchRedisError, callRedis, type RedisOptionIssue, throwIfIssues } from '../errors.js';
import { connectProducer, untilReady, withTimeout } from './connection.js';
import { type DeliveryHistoryPage, type HistoryPageOptions, readHistory } from './history.js';
import { deliveryJob } from './jobs.js';
import { deliveryJobId, queueKeys } from './keys.js';
import {
  checkInteger,
  checkOptionsObject,
  DELIVERY_QUEUE_DEFAULTS,
  type DeliveryQueueOptions,
  resolveBaseOptions,
} from './options.js';
import { expireParkedAlerts, releaseParkedAlerts } from './release.js';
import { checkRetrySchedule, type RetrySchedule } from './retry-schedule.js';

/** Jobs in each state, and alerts parked. */
export interface DeliveryQueueCounts {
  /** Ready to run. */
  readonly waiting: number;
  /** Being delivered now. */
  readonly active: number;
  /** Waiting for their next attempt (retry delay). */
  readonly delayed: number;
  /** Failed for a reason other than delivery (kept by BullMQ for inspection). */
  readonly failed: number;
  /** Parked alerts, all channels. */
  readonly parked: number;
}

/** What `enqueue` gives back. */
export interface EnqueueResult {
  /** The BullMQ job id (the same for the same alert and channel while it is pending). */
  readonly jobId: string;
}

/** What `enableChannel` and `releaseParked` give back. */
export interface ReleaseResult {
  /** Parked alerts put back in the queue. */
  readonly released: number;
}

/** What `expireParked` gives back. */
export interface ExpireResult {
  /** Parked alerts dropped because they waited longer than `parkedTtlMs` (each recorded). */
  readonly expired: number;
}

/** The producer and admin side of the delivery queue; see {@link createDeliveryQueue}. */
export interface DeliveryQueue {
  /**
   * Hands an alert for a channel to the queue; resolves once Redis stored it. The same alert
   * given again for the same channel while it is pending is the same job.
   * Throws `redis_unavailable` when Redis cannot store it.
   */
  enqueue(channelId: string, alert: CspwatchEvent): Promise<EnqueueResult>;
  /** Re-enables a channel (resets its count) and releases its parked alerts. */
  enableChannel(channelId: string): Promise<ReleaseResult>;
  /** Puts a channel's parked alerts back in the queue (a fresh schedule, the same `id`). */
  releaseParked(channelId: string): Promise<ReleaseResult>;
  /** Expires alerts parked longer than `parkedTtlMs` now (workers also do it periodically). */
  expireParked(): Promise<ExpireResult>;
  /** Reads a channel's delivery history, newest first. */
  getHistory(channelId: string, options?: HistoryPageOptions): Promise<DeliveryHistoryPage>;
  /** Reads a channel's shared state (failure count, disabled flag). */
  getChannelState(channelId: string): Promise<ChannelState>;
  /** Counts alerts parked for a channel. */
  countParked(channelId: string): Promise<number>;
  /** Counts jobs by state, and parked alerts. */
  getCounts(): Promise<DeliveryQueueCounts>;
  /** Closes the Redis connections. */
  close(): Promise<void>;
}

function checkChannelId(channelId: unknown): asserts channelId is string {
  if (typeof channelId !== 'string' || channelId === '' || channelId.length > 256) {
    throw new CspwatchRedisError(
      'invalid_input',
      'channelId must be a non-empty string (at most 256 characters)',
    );
  }
}

function checkAlert(alert: unknown): asserts alert is CspwatchEvent {
  if (
    typeof alert !== 'object' ||
    alert === null ||
    typeof (alert as { id?: unknown }).id !== 'string'
  ) {
    throw new CspwatchRedisError(
      'invalid_input',
      'alert must be an alert object with a string id (see buildAlert)',
    );
  }
}

/**
 * Creates the producer/admin side of the delivery queue. Options are validated here.
 *
 * @example
 * ```ts
 * const queue = createDeliveryQueue({ connection: process.env.REDIS_URL! });
 * await queue.enqueue(channel.id, buildAlert(input)); // delivered by the workers
 * // later, after the owner fixed the endpoint:
 * await queue.enableChannel(channel.id); // { released: 42 }
 * ```
 */
export function createDeliveryQueue(options: DeliveryQueueOptions): DeliveryQueue {
  const what = 'createDeliveryQueue';
  checkOptionsObject(what, options);
  const issues: RedisOptionIssue[] = [];
  const base = resolveBaseOptions(
    options,
    ['attemptDelaysMs', 'jitter', 'commandTimeoutMs'],
    issues,
  );
  checkRetrySchedule(issues, options.attemptDelaysMs, options.jitter);
  checkInteger(issues, 'commandTimeoutMs', options.commandTimeoutMs, 1, 600_000);
  throwIfIssues(what, issues);
  const defaults = DELIVERY_QUEUE_DEFAULTS;
  const schedule: RetrySchedule = {
    delaysMs: [...(options.attemptDelaysMs ?? defaults.attemptDelaysMs)],
    jitter: options.jitter ?? defaults.jitter,
  };
  const timeoutMs = options.commandTimeoutMs ?? defaults.commandTimeoutMs;
  const retention = { maxEntries: base.historyMaxEntries, maxAgeMs: base.historyMaxAgeMs };
  const keys = queueKeys(base.prefix, base.queueName);
  const redis = connectProducer(base.connection, timeoutMs);
  const queue = new Queue(base.queueName, { connection: redis, prefix: base.prefix });
  queue.on('error', () => {}); // surfaced per call as redis_unavailable
  const store = createRedisChannelStateStore({ redis, prefix: keys.channelStatePrefix });
  const call = <T>(name: string, work: () => Promise<T>) =>
    callRedis(name, async () => {
      const deadline = Date.now() + timeoutMs;
      await untilReady(name, redis, timeoutMs);
      return withTimeout(name, work(), Math.max(1, deadline - Date.now()));
    });
  const release = (channelId: string) =>
    releaseParkedAlerts(redis, queue, keys, channelId, schedule, retention);

  return {
    async enqueue(channelId, alert) {
      checkChannelId(channelId);
      checkAlert(alert);
      const data = JSON.parse(JSON.stringify(alert)) as CspwatchEvent;
      const job = deliveryJob(
        { channelId, alert: data, priorAttempts: 0, schedule },
        deliveryJobId(channelId, alert.id),
      );
      return call('enqueue', async () => {
        const added = await queue.add(job.name, job.data, job.opts);
        return { jobId: added.id ?? job.opts.jobId! };
      });
    },
    async enableChannel(channelId) {
      checkChannelId(channelId);
      return call('enableChannel', async () => {
        await store.enable(channelId);
        return { released: await release(channelId) };
      });
    },
    async releaseParked(channelId) {
      checkChannelId(channelId);
      return call('releaseParked', async () => ({ released: await release(channelId) }));
    },
    expireParked: () =>
      call('expireParked', async () => ({
        expired: await expireParkedAlerts(redis, keys, base.parkedTtlMs, retention),
      })),
    async getHistory(channelId, pageOptions = {}) {
      checkChannelId(channelId);
      return call('getHistory', () =>
        readHistory(redis, keys.history(channelId), pageOptions, retention),
      );
    },
    async getChannelState(channelId) {
      checkChannelId(channelId);
      return call('getChannelState', () => store.get(channelId));
    },
    async countParked(channelId) {
      checkChannelId(channelId);
      return call('countParked', () => redis.zcard(keys.parked(channelId)));
    },
    getCounts: () =>
      call('getCounts', async () => {
        const counts = await queue.getJobCounts(
          'waiting',
          'prioritized',
          'active',
          'delayed',
          'failed',
        );
        return {
          waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
          active: counts.active ?? 0,
          delayed: counts.delayed ?? 0,
          failed: counts.failed ?? 0,
          parked: await redis.zcard(keys.parkedAll),
        };
      }),
    async close() {
      await queue.close().catch(() => {});
      redis.disconnect();
    },
  };
}
