/**
 * Where each shard's BullMQ queue lives, for tools that open BullMQ queues themselves
 * (bull-board, BullMQ's own `Queue` API, a dashboard of your own).
 */
import * as z from 'zod/mini';
import { type DeliveryQueueBaseOptions, locationShape, parseOptions } from './options';
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

const locationSchema = z.object(locationShape);

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
  // Only these three are read: the rest of a queue's options may come along.
  const { queueName, prefix, shards } = parseOptions(what, locationSchema, options, 'ignore');
  return Array.from({ length: shards }, (_, shard) => ({
    shard,
    name: queueName,
    prefix: shardPrefix(prefix, shard, shards),
  }));
}
