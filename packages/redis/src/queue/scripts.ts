/**
 * The queue's Lua scripts, defined once per client with ioredis `defineCommand`, so each call
 * sends `EVALSHA` and a 40-byte hash instead of the script text (ioredis falls back to `EVAL`
 * after a Redis restart emptied the script cache). Every script touches the keys of one
 * channel only (one `{channelId}` hash tag), or of one alert; but the one-node script, which
 * runs on one redis-server only.
 */
import type { Cluster, Redis } from 'ioredis';

/**
 * Lua that appends the entry in ARGV[1] to the stream KEYS[1]: trimmed to ARGV[2] entries, and
 * to ids from ARGV[3] on when that is not empty. A stream this creates expires ARGV[4] ms after
 * its newest entry; an existing one gets that expiry again only when ARGV[4] is not empty (the
 * caller refreshes it now and then, see expiry-refresh.ts).
 */
const APPEND_ENTRY = `
if not redis.call('XADD', KEYS[1], 'NOMKSTREAM', 'MAXLEN', ARGV[2], '*', 'e', ARGV[1]) then
  redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], '*', 'e', ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
elseif ARGV[4] ~= '' then
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
if ARGV[3] ~= '' then redis.call('XTRIM', KEYS[1], 'MINID', ARGV[3]) end`;

/**
 * {@link APPEND_ENTRY} once (KEYS[2] is its once-key). The once-key makes it idempotent: a script
 * re-sent after a reconnect (the reply was lost, the write was not) appends nothing twice.
 */
const APPEND_ENTRY_ONCE = `
if redis.call('SET', KEYS[2], '1', 'NX', 'PX', 600000) then ${APPEND_ENTRY}
end`;

// KEYS: stream, once-key. ARGV: JSON, max entries, min id ('' = not this time), max age ms to
// refresh ('' = not this time), max age ms of a new stream.
const APPEND_HISTORY = `${APPEND_ENTRY_ONCE}
return 1`;

// KEYS: stream, once-key, in-flight set, waiting room. ARGV: as APPEND_HISTORY, then the job id.
// An attempt's end: its history entry, its in-flight slot given back, and the oldest job
// waiting for a slot of this channel ({ id, score }, for the caller to promote) or nothing.
const FINISH_ATTEMPT = `${APPEND_ENTRY_ONCE}
redis.call('ZREM', KEYS[3], ARGV[6])
return redis.call('ZPOPMIN', KEYS[4])`;

// KEYS: stream, alert history hash, in-flight set, waiting room. ARGV: as APPEND_HISTORY, then
// the job id, the alert entry's field, its max age ms. FINISH_ATTEMPT and APPEND_ALERT in one
// script, for one redis-server (the alert's hash is in another cluster slot than the channel's
// keys): a new field of the alert's hash is the once-guard of the stream's entry.
const FINISH_ATTEMPT_ONE_NODE = `
if redis.call('HSET', KEYS[2], ARGV[7], ARGV[1]) == 1 then
  redis.call('PEXPIRE', KEYS[2], ARGV[8]) ${APPEND_ENTRY}
end
redis.call('ZREM', KEYS[3], ARGV[6])
return redis.call('ZPOPMIN', KEYS[4])`;

// KEYS: alert history hash. ARGV: entry id, JSON, max age ms. Idempotent (HSET of one field).
const APPEND_ALERT = `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

// KEYS: in-flight set, the channel's failures and disabled flag (the channel state store's keys).
// ARGV: job id, now, lease end, cap, key lifetime ms, '1' to refresh the lifetime of a set
// that exists. Takes one of the channel's in-flight slots and answers { 1, failures, disabled
// (0/1) } (the state the sender reads before its attempt), or { 0 } when all are held. A slot
// whose lease ran out (its worker died mid-attempt) is taken back first.
const ACQUIRE_SLOT = `
local cap = tonumber(ARGV[4])
local held = redis.call('ZCARD', KEYS[1])
if held >= cap then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
  held = redis.call('ZCARD', KEYS[1])
  if held >= cap then return {0} end
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
if held == 0 or ARGV[6] == '1' then redis.call('PEXPIRE', KEYS[1], ARGV[5]) end
local state = redis.call('MGET', KEYS[2], KEYS[3])
return {1, state[1] or '0', state[2] and 1 or 0}`;

// KEYS: in-flight set, waiting room. ARGV: job id, now, cap, key lifetime ms.
// Run after the job moved itself to delayed: 1 when a slot came free meanwhile (the caller
// promotes the job at once), else 0 and the job waits in the room, oldest first.
const WAIT_FOR_SLOT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then return 1 end
redis.call('ZADD', KEYS[2], 'NX', ARGV[2], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 0`;

// KEYS: in-flight set, waiting room. ARGV: job id. Gives back a slot without recording an
// attempt (the channel was disabled, or the worker failed); answers like FINISH_ATTEMPT.
const RELEASE_SLOT = `
redis.call('ZREM', KEYS[1], ARGV[1])
return redis.call('ZPOPMIN', KEYS[2])`;

// KEYS: waiting room. Pops the oldest waiting job id (after a promote that found it gone).
const NEXT_WAITING = `return redis.call('ZPOPMIN', KEYS[1])`;

// KEYS: channel parked set, channel parked data, disabled flag.
// ARGV: entry id, parked at, JSON, '1' when it must only park while the channel is disabled.
const PARK = `
if ARGV[4] == '1' and redis.call('EXISTS', KEYS[3]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1`;

// KEYS: channel parked set, channel parked data. ARGV: cutoff time, batch size.
// Removes and returns up to a batch of the channel's alerts parked at or before the cutoff.
const TAKE_EXPIRED = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for _, id in ipairs(ids) do
  local json = redis.call('HGET', KEYS[2], id)
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
  if json then table.insert(out, json) end
end
return out`;

const SCRIPTS = {
  cspwatchAppendHistory: { numberOfKeys: 2, lua: APPEND_HISTORY },
  cspwatchFinishAttempt: { numberOfKeys: 4, lua: FINISH_ATTEMPT },
  cspwatchFinishAttemptOneNode: { numberOfKeys: 4, lua: FINISH_ATTEMPT_ONE_NODE },
  cspwatchAppendAlert: { numberOfKeys: 1, lua: APPEND_ALERT },
  cspwatchAcquireSlot: { numberOfKeys: 3, lua: ACQUIRE_SLOT },
  cspwatchWaitForSlot: { numberOfKeys: 2, lua: WAIT_FOR_SLOT },
  cspwatchReleaseSlot: { numberOfKeys: 2, lua: RELEASE_SLOT },
  cspwatchNextWaiting: { numberOfKeys: 1, lua: NEXT_WAITING },
  cspwatchPark: { numberOfKeys: 3, lua: PARK },
  cspwatchTakeExpired: { numberOfKeys: 2, lua: TAKE_EXPIRED },
} as const;

type ScriptName = keyof typeof SCRIPTS;
type Scripted<R> = Record<ScriptName, (...keysAndArgs: string[]) => R>;

/** A client of the queue: one Redis, or a Redis Cluster. */
export type QueueClient = Redis | Cluster;

/** A client on which the queue's scripts are defined. */
export type ScriptedRedis = QueueClient & Scripted<Promise<unknown>>;

/** Defines the queue's scripts on a client the queue created (once). */
export function defineQueueScripts(redis: QueueClient): ScriptedRedis {
  for (const [name, definition] of Object.entries(SCRIPTS)) {
    if (!(name in redis)) redis.defineCommand(name, definition);
  }
  return redis as ScriptedRedis;
}
