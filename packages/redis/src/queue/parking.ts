/**
 * Parked alerts: held in Redis (not in BullMQ, which has no such state) until their channel is
 * re-enabled, or until they expire. Parking for a disabled channel checks the disabled flag in
 * the same script, so an alert can never be parked after the channel was re-enabled and its
 * parked alerts released.
 */
import type { CspwatchEvent } from '@cspwatch/webhooks';
import type { ParkReason } from './history';
import type { QueueKeys } from './keys';
import { multi, type ScriptedCommands, type ScriptedRedis } from './scripts';

/** An alert held back, as stored. */
export interface ParkedAlert {
  readonly entryId: string;
  readonly channelId: string;
  readonly alert: CspwatchEvent;
  /** Attempts made before parking. */
  readonly attempts: number;
  readonly reason: ParkReason;
  readonly parkedAt: number;
}

/**
 * Parks an alert. With `onlyWhileDisabled`, resolves `false` (and parks nothing) when the
 * channel is no longer disabled: the caller should deliver it instead.
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
    keys.parkedAll,
    keys.parkedData,
    keys.disabled(channelId),
    entryId,
    String(parkedAt),
    JSON.stringify(parked),
    onlyWhileDisabled ? '1' : '0',
  );
  return reply === 1;
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
  const rows = await redis.hmget(keys.parkedData, ...ids);
  return rows.flatMap((row) => (row === null ? [] : [JSON.parse(row) as ParkedAlert]));
}

/** Removes parked alerts by id (after they were put back in the queue). */
export function unpark(
  redis: ScriptedRedis,
  keys: QueueKeys,
  channelId: string,
  entryIds: string[],
): ScriptedCommands {
  const commands = multi(redis);
  commands.zrem(keys.parked(channelId), ...entryIds);
  commands.zrem(keys.parkedAll, ...entryIds);
  commands.hdel(keys.parkedData, ...entryIds);
  return commands;
}

/** Removes and returns up to `batch` parked alerts parked before `cutoff`, atomically. */
export async function takeExpired(
  redis: ScriptedRedis,
  keys: QueueKeys,
  cutoff: number,
  batch: number,
): Promise<ParkedAlert[]> {
  const rows = (await redis.cspwatchTakeExpired(
    keys.parkedAll,
    keys.parkedData,
    String(cutoff),
    String(batch),
    keys.parkedPrefix,
  )) as string[];
  return rows.map((row) => JSON.parse(row) as ParkedAlert);
}
