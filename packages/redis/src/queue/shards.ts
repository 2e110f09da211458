/**
 * The queue's shards: one BullMQ queue per shard, each under its own hash tag, so on Redis
 * Cluster each shard's keys live in one slot and the shards spread over the masters. A channel
 * always maps to the same shard, so its jobs, its in-flight cap and its order stay together.
 */
import { keySlot, SLOTS } from '../stores/key-slot';

/**
 * The hash tag of shard `index` of `count`: the first of `<index>.<k>` (k = 0, 1, …) whose slot
 * falls in the shard's equal share of the slot range. A cluster whose masters split the slots
 * evenly (as `redis-cli --cluster create` does) then gives each shard to a different master
 * while there are no more shards than masters.
 */
export function shardTag(index: number, count: number): string {
  const low = Math.floor((index * SLOTS) / count);
  const high = Math.floor(((index + 1) * SLOTS) / count);
  for (let k = 0; ; k++) {
    const tag = `${index}.${k}`;
    const slot = keySlot(tag);
    if (slot >= low && slot < high) return tag;
  }
}

/** The BullMQ prefix of shard `index` of `count`: `<prefix>:{<tag>}`. */
export function shardPrefix(prefix: string, index: number, count: number): string {
  return `${prefix}:{${shardTag(index, count)}}`;
}

/** The shard of a channel: the slot of its `{channelId}` keys modulo the shard count (stable, even). */
export function shardOf(channelId: string, count: number): number {
  return keySlot(`{${channelId}}`) % count;
}
