/**
 * @cspwatch/redis/queue: a durable delivery queue on BullMQ, on one Redis or a Redis Cluster.
 * Alerts handed to the queue are delivered by any number of worker processes with
 * `@cspwatch/webhook-sender`, retried on a schedule with jitter, parked (not dropped) while
 * their channel is disabled, and every attempt is recorded in the channel's and the alert's
 * history. Needs `bullmq`, `ioredis` and `@cspwatch/webhook-sender`.
 *
 * @packageDocumentation
 */

export {
  CspwatchRedisError,
  type CspwatchRedisErrorCode,
  type CspwatchRedisErrorOptions,
  isCspwatchRedisError,
  type RedisOptionIssue,
} from './errors';
export { createDeliveryQueue } from './queue/delivery-queue';
export type {
  DeliveryQueue,
  DeliveryQueueCounts,
  EnqueueOptions,
  EnqueueResult,
  ExpireResult,
  ReleaseResult,
} from './queue/delivery-queue-types';
export { createDeliveryWorker, type DeliveryWorker } from './queue/delivery-worker';
export type { DeliveryWorkerHealth } from './queue/health';
export type {
  ChannelProblem,
  DeliveryAttemptEntry,
  DeliveryEventEntry,
  DeliveryHistoryEntry,
  DeliveryHistoryPage,
  HistoryPageOptions,
  ParkReason,
} from './queue/history';
export type { DeliveryObserver, DeliveryOutcomeEvent } from './queue/observer';
export {
  type ClusterConnectionOptions,
  DELIVERY_QUEUE_DEFAULTS,
  type DeliveryQueueBaseOptions,
  type DeliveryQueueOptions,
  type HistoryRetentionOptions,
  type RedisConnectionOptions,
} from './queue/options';
export { deliveryQueueShards, type ShardQueueLocation } from './queue/shard-locations';
export type { ChannelLookup, DeliveryWorkerOptions } from './queue/worker-options';
export type { Durability } from './stores/replication';
export type { QueueTracerProvider } from './telemetry/tracing';
