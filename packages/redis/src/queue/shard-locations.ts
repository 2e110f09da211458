/**
 * Where each shard's BullMQ queue lives, for tools that open BullMQ queues themselves
 * (bull-board, BullMQ's own `Queue` API, a dashboard of your own).
 */
import { type RedisOptionIssue, throwIfIssues } from '../errors';
import {
  checkInteger,
  checkName,
  checkOptionsObject,
  DELIVERY_QUEUE_DEFAULTS,
  type DeliveryQueueBaseOptions,
} from './options';
import { shardPrefix } from './shards';

/** One shard's BullMQ queue: open it with `new Queue(name, { connection, prefix })`. */
export interface ShardQueueLocation {
  /** The shard's index, from 0. */
  readonly shard: number;
  /** The BullMQ queue name (the `queueName` option). */
  readonly name: string;
  /** The BullMQ key prefix of this shard: `<prefix>:{<shard tag>}`. */
  readonly prefix: string;
}

/**
 * Lists the BullMQ queue of every shard of a delivery queue. Give it the options given to
 * {@link createDeliveryQueue}: only `queueName`, `prefix` and `shards` are read (and checked
 * as there), so the whole options object can be passed as it is. Opens no connection.
 *
 * @example
 * ```ts
 * const queues = deliveryQueueShards(options).map(
 *   ({ name, prefix }) => new Queue(name, { connection: redis, prefix }),
 * );
 * ```
 */
export function deliveryQueueShards(
  options: Pick<DeliveryQueueBaseOptions, 'queueName' | 'prefix' | 'shards'>,
): readonly ShardQueueLocation[] {
  const what = 'deliveryQueueShards';
  checkOptionsObject(what, options);
  const issues: RedisOptionIssue[] = [];
  checkName(issues, 'queueName', options.queueName);
  checkName(issues, 'prefix', options.prefix);
  checkInteger(issues, 'shards', options.shards, 1, 256);
  throwIfIssues(what, issues);
  const {
    queueName = DELIVERY_QUEUE_DEFAULTS.queueName,
    prefix = DELIVERY_QUEUE_DEFAULTS.prefix,
    shards = DELIVERY_QUEUE_DEFAULTS.shards,
  } = options;
  return Array.from({ length: shards }, (_, shard) => ({
    shard,
    name: queueName,
    prefix: shardPrefix(prefix, shard, shards),
  }));
}
