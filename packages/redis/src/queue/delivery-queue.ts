/**
 * The producer and admin side of the delivery queue: hand alerts to the queue, re-enable a
 * channel and release its parked alerts, read the history. Every call fails within
 * `commandTimeoutMs` with `redis_unavailable` when Redis is down: nothing is dropped silently.
 */

import { CspwatchRedisError, callRedis } from '../errors';
import { createRedisChannelStateStore } from '../stores/channel-state-store';
import { DURABILITIES, type Durability, waitForReplica } from '../stores/replication';
import { createQueueTracing } from '../telemetry/tracing';
import { connectProducer, untilReady, withTimeout } from './connection';
import type { DeliveryQueue } from './delivery-queue-types';
import { readAlertHistory, readHistory } from './history';
import { deliveryJob } from './jobs';
import { deliveryJobId, queueKeys } from './keys';
import {
  type DeliveryQueueOptions,
  deliveryQueueSchema,
  parseOptions,
  toBaseOptions,
} from './options';
import { countAllParked } from './parking';
import { checkAlertId, checkChannelId, toJobAlert } from './queue-input';
import { expireParkedAlerts, releaseParkedAlerts } from './release';
import type { RetrySchedule } from './retry-schedule';
import { openShardQueues } from './shard-queues';

/** Throws `invalid_input` unless `value` is a durability level. */
function checkDurability(value: unknown): Durability {
  if (DURABILITIES.includes(value as Durability)) return value as Durability;
  throw new CspwatchRedisError('invalid_input', "durability must be 'primary' or 'replicated'");
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
  const settings = parseOptions(what, deliveryQueueSchema, options);
  const base = toBaseOptions(settings);
  const schedule: RetrySchedule = { delaysMs: settings.attemptDelaysMs, jitter: settings.jitter };
  const { commandTimeoutMs: timeoutMs, maxAlertBytes, durability } = settings;
  const retention = { maxEntries: base.historyMaxEntries, maxAgeMs: base.historyMaxAgeMs };
  const keys = queueKeys(base.prefix, base.queueName);
  const redis = connectProducer(base.connection, timeoutMs);
  // Errors surface per call as redis_unavailable.
  const queues = openShardQueues(redis, base.prefix, base.queueName, base.shards, () => {});
  const store = createRedisChannelStateStore({ redis, prefix: keys.channelStatePrefix });
  const call = <T>(name: string, work: (deadline: number) => Promise<T>) =>
    callRedis(name, async () => {
      const deadline = Date.now() + timeoutMs;
      await untilReady(name, redis, timeoutMs);
      return withTimeout(name, work(deadline), Math.max(1, deadline - Date.now()));
    });
  const tracing = createQueueTracing(base.queueName, base.tracerProvider);
  const release = (channelId: string) =>
    releaseParkedAlerts(redis, queues, keys, channelId, schedule, retention);

  return {
    async enqueue(channelId, alert, enqueueOptions = {}) {
      checkChannelId(channelId);
      const data = toJobAlert(alert, maxAlertBytes); // refused before Redis is touched
      const wanted = checkDurability(enqueueOptions?.durability ?? durability);
      return tracing.send(channelId, data.id, (traced) => {
        const job = deliveryJob(
          { channelId, alert: data, priorAttempts: 0, schedule, ...traced },
          deliveryJobId(channelId, data.id),
        );
        return call('enqueue', async (deadline) => {
          const queue = queues.forChannel(channelId);
          const added = await queue.add(job.name, job.data, job.opts);
          if (wanted === 'replicated') {
            const waitMs = Math.max(1, deadline - Date.now());
            await waitForReplica(redis, queue.opts.prefix ?? '', waitMs, 'enqueue');
            // (an enqueue again is safe: the same alert for the same channel is the same job)
          }
          return { jobId: added.id ?? job.opts.jobId! };
        });
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
    async getAlertHistory(alertId) {
      checkAlertId(alertId);
      return call('getAlertHistory', () => readAlertHistory(redis, keys, alertId, retention));
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
        const states = ['waiting', 'prioritized', 'active', 'delayed', 'failed'] as const;
        const perShard = await Promise.all(queues.all.map((q) => q.getJobCounts(...states)));
        const sum = (state: (typeof states)[number]) =>
          perShard.reduce((total, counts) => total + (counts[state] ?? 0), 0);
        return {
          waiting: sum('waiting') + sum('prioritized'),
          active: sum('active'),
          delayed: sum('delayed'),
          failed: sum('failed'),
          parked: await countAllParked(redis, keys),
        };
      }),
    countDisabledChannels: () =>
      call('countDisabledChannels', () => redis.scard(keys.disabledChannels)),
    async close() {
      await queues.close();
      redis.disconnect();
    },
  };
}
