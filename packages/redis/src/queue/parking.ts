/**
 * Parked alerts: held in Redis (not in BullMQ, which has no such state) until their channel is
 * re-enabled, or until they expire. A channel's parked alerts live under its hash tag, so one
 * script parks, takes or expires them (Redis Cluster too); a separate index of the channels
 * with parked alerts serves expiry and counts. Parking for a disabled channel checks the
 * disabled flag in the same script, so an alert can never be parked after the channel was
 * re-enabled and its parked alerts released.
 */
import type { CspwatchEvent } from '@cspwatch/webhooks';
import type { JobTraceContext } from '../telemetry/tracing';
import type { ParkReason } from './history';
import type { QueueKeys } from './keys';
import type { ScriptedRedis } from './scripts';

/** An alert held back, as stored. */
export interface ParkedAlert {
  readonly entryId: string;
  readonly channelId: string;
  readonly alert: CspwatchEvent;
  /** Attempts made before parking. */
  readonly attempts: number;
  readonly reason: ParkReason;
  readonly parkedAt: number;
  /** The job's trace context, carried to the job that releases it. */
  readonly traceContext?: JobTraceContext;
}

/**
 * Parks an alert, then lists its channel in the index. With `onlyWhileDisabled`, resolves
 * `false` (and parks nothing) when the channel is no longer disabled: the caller should deliver
 * it instead.
 */
export async function parkAlert(
  redis: ScriptedRedis,
  keys: QueueKeys,
  parked: ParkedAlert,
  onlyWhileDisabled: boolean,
): Promise<boolean> {
  const { entryId, channelId, parkedAt } = parked;
  const reply = await redis.cspwatchPark(
    keys.parked(channelId),
    keys.parkedData(channelId),
    keys.disabled(channelId),
    entryId,
    String(parkedAt),
    JSON.stringify(parked),
    onlyWhileDisabled ? '1' : '0',
  );
  if (reply !== 1) return false;
  // LT: an older parked time already listed stays (the index holds each channel's oldest).
  await redis.zadd(keys.parkedChannels, 'LT', parkedAt, channelId);
  return true;
}

/** Reads up to `batch` parked alerts of a channel, oldest first (not removed). */
export async function readParked(
  redis: ScriptedRedis,
  keys: QueueKeys,
  channelId: string,
  batch: number,
): Promise<ParkedAlert[]> {
  const ids = await redis.zrange(keys.parked(channelId), 0, batch - 1);
  if (ids.length === 0) return [];
  const rows = await redis.hmget(keys.parkedData(channelId), ...ids);
  return rows.flatMap((row) => (row === null ? [] : [JSON.parse(row) as ParkedAlert]));
}

/** Removes a channel's parked alerts by id (after they were put back in the queue). */
export async function unpark(
  redis: ScriptedRedis,
  keys: QueueKeys,
  channelId: string,
  entryIds: string[],
): Promise<void> {
  await redis
    .multi()
    .zrem(keys.parked(channelId), ...entryIds)
    .hdel(keys.parkedData(channelId), ...entryIds)
    .exec();
}

/** Removes and returns up to `batch` of a channel's alerts parked at or before `cutoff`. */
export async function takeExpired(
  redis: ScriptedRedis,
  keys: QueueKeys,
  channelId: string,
  cutoff: number,
  batch: number,
): Promise<ParkedAlert[]> {
  const rows = (await redis.cspwatchTakeExpired(
    keys.parked(channelId),
    keys.parkedData(channelId),
    String(cutoff),
    String(batch),
  )) as string[];
  return rows.map((row) => JSON.parse(row) as ParkedAlert);
}

/** Channels whose oldest parked alert was parked at or before `cutoff` (up to `batch`). */
export function channelsParkedBefore(
  redis: ScriptedRedis,
  keys: QueueKeys,
  cutoff: number,
  batch: number,
): Promise<string[]> {
  return redis.zrangebyscore(keys.parkedChannels, '-inf', cutoff, 'LIMIT', 0, batch);
}

/**
 * Brings a channel's index entry up to date after alerts were taken: its oldest parked time,
 * or no entry when it has none. A park racing the removal re-lists itself (it writes the index
 * after its alert), and the re-check after the removal catches one that came before.
 */
export async function reindexChannel(
  redis: ScriptedRedis,
  keys: QueueKeys,
  channelId: string,
): Promise<void> {
  const oldest = async () => (await redis.zrange(keys.parked(channelId), 0, 0, 'WITHSCORES'))[1];
  const first = await oldest();
  if (first !== undefined) {
    await redis.zadd(keys.parkedChannels, first, channelId);
    return;
  }
  await redis.zrem(keys.parkedChannels, channelId);
  const again = await oldest();
  if (again !== undefined) await redis.zadd(keys.parkedChannels, 'LT', again, channelId);
}

/** Counts the parked alerts of every channel. */
export async function countAllParked(redis: ScriptedRedis, keys: QueueKeys): Promise<number> {
  const channels = await redis.zrange(keys.parkedChannels, 0, -1);
  const counts = await Promise.all(channels.map((id) => redis.zcard(keys.parked(id))));
  return counts.reduce((sum, count) => sum + count, 0);
}
