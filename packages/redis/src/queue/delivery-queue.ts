/**
 * The producer and admin side of the delivery queue: hand alerts to the queue, re-enable a
 * channel and release its parked alerts, read the history. Every call fails within
 * `commandTimeoutMs` with `redis_unavailable` when Redis is down: nothing is dropped silently.
 */
import { Queue } from 'bullmq';
import { createRedisChannelStateStore } from '../channel-state-store';
import { callRedis, type RedisOptionIssue, throwIfIssues } from '../errors';
import { connectProducer, untilReady, withTimeout } from './connection';
import type { DeliveryQueue } from './delivery-queue-types';
import { readHistory } from './history';
import { deliveryJob } from './jobs';
import { deliveryJobId, queueKeys } from './keys';
import {
  checkInteger,
  checkOptionsObject,
  DELIVERY_QUEUE_DEFAULTS,
  type DeliveryQueueOptions,
  resolveBaseOptions,
} from './options';
import { checkChannelId, toJobAlert } from './queue-input';
import { expireParkedAlerts, releaseParkedAlerts } from './release';
import { checkRetrySchedule, type RetrySchedule } from './retry-schedule';

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
      const data = toJobAlert(alert);
      const job = deliveryJob(
        { channelId, alert: data, priorAttempts: 0, schedule },
        deliveryJobId(channelId, data.id),
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
