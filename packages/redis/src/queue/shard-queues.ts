/**
 * The BullMQ queues of a delivery queue, one per shard, and where a channel's jobs go.
 */
import { Queue } from 'bullmq';
import type { DeliveryJobTarget } from './jobs';
import type { QueueClient } from './scripts';
import { shardOf, shardPrefix } from './shards';

/** Every shard's BullMQ queue. */
export interface ShardQueues extends DeliveryJobTarget {
  /** One queue per shard, in shard order. */
  readonly all: readonly Queue[];
  /** The queue of the channel's shard. */
  forChannel(channelId: string): Queue;
  /** Closes every queue (not the connection). */
  close(): Promise<void>;
}

/** Opens the shards' queues on one connection; their errors go to `onError`. */
export function openShardQueues(
  connection: QueueClient,
  prefix: string,
  queueName: string,
  shards: number,
  onError: (error: unknown) => void,
): ShardQueues {
  const all = Array.from({ length: shards }, (_, index) => {
    const queue = new Queue(queueName, { connection, prefix: shardPrefix(prefix, index, shards) });
    queue.on('error', onError);
    return queue;
  });
  const forChannel = (channelId: string) => all[shardOf(channelId, shards)] as Queue;
  return {
    all,
    forChannel,
    async add(channelId, jobs) {
      if (jobs.length > 0) await forChannel(channelId).addBulk([...jobs]);
    },
    async close() {
      await Promise.all(all.map((queue) => queue.close().catch(() => {})));
    },
  };
}
