/**
 * Parked alerts: held in Redis (not in BullMQ, which has no such state) until their channel is
 * re-enabled, or until they expire. Parking for a disabled channel checks the disabled flag in
 * the same script, so an alert can never be parked after the channel was re-enabled and its
 * parked alerts released.
 */
import type { CspwatchEvent } from '@cspwatch/webhooks';
import type { Redis } from 'ioredis';
import type { ParkReason } from './history.js';
import type { QueueKeys } from './keys.js';

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

// KEYS: channel parked set, all parked, parked data, disabled flag.
// ARGV: entry id, parked at, JSON, '1' when it must only park while the channel is disabled.
const PARK = `
if ARGV[4] == '1' and redis.call('EXISTS', KEYS[4]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
return 1`;

// KEYS: all parked, parked data. ARGV: cutoff time, batch size, per-channel key prefix.
const EXPIRE = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for _, id in ipairs(ids) do
  local json = redis.call('HGET', KEYS[2], id)
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
  if json then
    local entry = cjson.decode(json)
    redis.call('ZREM', ARGV[3] .. '{' .. entry.channelId .. '}', id)
    table.insert(out, json)
  end
end
return out`;

/**
 * Parks an alert. With `onlyWhileDisabled`, resolves `false` (and parks nothing) when the
 * channel is no longer disabled: the caller should deliver it instead.
 */
export async function parkAlert(
  redis: Redis,
  keys: QueueKeys,
  parked: ParkedAlert,
  onlyWhileDisabled: boolean,
): Promise<boolean> {
  const { entryId, channelId, parkedAt } = parked;
  const reply = await redis.eval(
    PARK,
    4,
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
  redis: Redis,
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
export function unpark(redis: Redis, keys: QueueKeys, channelId: string, entryIds: string[]) {
  return redis
    .multi()
    .zrem(keys.parked(channelId), ...entryIds)
    .zrem(keys.parkedAll, ...entryIds)
    .hdel(keys.parkedData, ...entryIds);
}

/** Removes and returns up to `batch` parked alerts parked before `cutoff`, atomically. */
export async function takeExpired(
  redis: Redis,
  keys: QueueKeys,
  cutoff: number,
  batch: number,
): Promise<ParkedAlert[]> {
  const rows = (await redis.eval(
    EXPIRE,
    2,
    keys.parkedAll,
    keys.parkedData,
    String(cutoff),
    String(batch),
    keys.parkedPrefix,
  )) as string[];
  return rows.map((row) => JSON.parse(row) as ParkedAlert);
}
