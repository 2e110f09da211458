/**
 * The queue's Lua scripts, defined once per client with ioredis `defineCommand`, so each call
 * sends `EVALSHA` and a 40-byte hash instead of the script text (ioredis falls back to `EVAL`
 * after a Redis restart emptied the script cache). Every script touches the keys of one
 * channel only (one `{channelId}` hash tag), or of one alert; but the end of an attempt on one
 * redis-server, which also writes the alert's log.
 */
import type { Cluster, Redis } from 'ioredis';
import { RECORD_ATTEMPT_LUA } from '../stores/channel-state-store';

/**
 * `append_entry(stream, json, max entries, min id, expiry to refresh, expiry of a new stream)`:
 * appends an entry to a channel's history stream, trimmed to `max entries` (and to ids from
 * `min id` on, unless it is ''). A stream this creates expires `expiry of a new stream` ms after
 * its newest entry; an existing one gets `expiry to refresh` again unless it is '' (the caller
 * refreshes it now and then, see expiry-refresh.ts).
 */
const APPEND_ENTRY_LUA = `
local function append_entry(stream, json, max_entries, min_id, refresh, new_ttl)
  if not redis.call('XADD', stream, 'NOMKSTREAM', 'MAXLEN', max_entries, '*', 'e', json) then
    redis.call('XADD', stream, 'MAXLEN', max_entries, '*', 'e', json)
    redis.call('PEXPIRE', stream, new_ttl)
  elseif refresh ~= '' then
    redis.call('PEXPIRE', stream, refresh)
  end
  if min_id ~= '' then redis.call('XTRIM', stream, 'MINID', min_id) end
end`;

/**
 * `slots_held(key, now)`: the in-flight slots held on a channel (its list, see in-flight.ts),
 * after taking back those whose lease ended before `now` (their worker died mid-attempt).
 */
const SLOTS_HELD_LUA = `
local function slots_held(key, now)
  local held = 0
  for _, slot in ipairs(redis.call('LRANGE', key, 0, -1)) do
    if slot ~= '~' then
      local lease = tonumber(string.match(slot, '^(%d+):'))
      if lease and lease < now then redis.call('LREM', key, 1, slot) else held = held + 1 end
    end
  end
  return held
end`;

// KEYS: stream, once-key. ARGV: JSON, max entries, min id ('' = not this time), expiry to
// refresh ('' = not this time), expiry of a new stream. The once-key makes it idempotent: a
// script re-sent after a reconnect (the reply was lost, the write was not) appends nothing twice.
const APPEND_HISTORY = `${APPEND_ENTRY_LUA}
if redis.call('SET', KEYS[2], '1', 'NX', 'PX', 600000) then
  append_entry(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5])
end
return 1`;

// KEYS: alert log. ARGV: entry id, JSON, max age ms. Adds the line `<id> <JSON>` once (a line
// of that id already there is not added again) and keeps the log max age after it.
const APPEND_ALERT = `
local line = ARGV[1] .. ' ' .. ARGV[2] .. '\\n'
if redis.call('SET', KEYS[1], line, 'NX', 'PX', ARGV[3]) then return 1 end
if string.find(redis.call('GET', KEYS[1]) or '', ARGV[1] .. ' {', 1, true) then return 0 end
redis.call('APPEND', KEYS[1], line)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

// KEYS: stream, once-key, slots, waiting room. ARGV: as APPEND_HISTORY, then the slot.
// An attempt's end on a Redis Cluster (the sender's store counted it; the alert's log is in
// another slot): its entry in the channel's history, its slot given back, and the oldest job
// waiting for a slot of this channel ({ id, score }, for the caller to promote) or nothing.
const FINISH_ATTEMPT = `${APPEND_ENTRY_LUA}
if redis.call('SET', KEYS[2], '1', 'NX', 'PX', 600000) then
  append_entry(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5])
end
redis.call('LREM', KEYS[3], 0, ARGV[6])
return redis.call('ZPOPMIN', KEYS[4])`;

// KEYS: stream, alert log, slots, waiting room, the channel's failures and disabled flag.
// ARGV: 1 'ok', 'failed' or 'uncounted' (a channel problem: nothing sent, nothing counted);
// 2 failures that disable ('uncounted': the failures to record); 3 the slot; 4 the entry id;
// 5 the entry's JSON up to its failure count; 6-9 as APPEND_HISTORY's 2-5; 10 the log's max age.
// An attempt's end on one redis-server, in one script: counted by the channel rule, recorded
// in the channel's history and the alert's log, its slot given back, and { failures,
// disabledNow, disabled, the oldest waiting job or '' } answered. Giving the slot back is the
// guard against a re-sent script: a slot that was not held any more (the first run gave it
// back, or its lease ran out) is looked up in the alert's log, and a first run's answer found
// there is answered again with nothing written.
const END_ATTEMPT_ONE_NODE = `${RECORD_ATTEMPT_LUA}${APPEND_ENTRY_LUA}
if redis.call('LREM', KEYS[3], 0, ARGV[3]) == 0 then
  local log = redis.call('GET', KEYS[2])
  local at = log and string.find(log, ARGV[4] .. ' {', 1, true)
  if at then
    local line = string.sub(log, at, string.find(log, '\\n', at, true) - 1)
    local failures, now = string.match(line, '"consecutiveFailures":(%d+),"disabledNow":(%a+)}$')
    if failures then
      return {tonumber(failures), now == 'true' and 1 or 0, redis.call('EXISTS', KEYS[6]), ''}
    end
  end
end
local failures, now, disabled
if ARGV[1] == 'uncounted' then
  failures, now, disabled = tonumber(ARGV[2]), 0, redis.call('EXISTS', KEYS[6])
else
  failures, now, disabled = record_attempt(KEYS[5], KEYS[6], ARGV[1] == 'ok', tonumber(ARGV[2]))
end
local json = ARGV[5] .. failures .. ',"disabledNow":' .. (now == 1 and 'true' or 'false') .. '}'
local line = ARGV[4] .. ' ' .. json .. '\\n'
if not redis.call('SET', KEYS[2], line, 'NX', 'PX', ARGV[10]) then
  redis.call('APPEND', KEYS[2], line)
  redis.call('PEXPIRE', KEYS[2], ARGV[10])
end
append_entry(KEYS[1], json, ARGV[6], ARGV[7], ARGV[8], ARGV[9])
local popped = redis.call('ZPOPMIN', KEYS[4])
return {failures, now, disabled, popped[1] or ''}`;

// KEYS: slots. ARGV: the slot, cap, the list's lifetime ms. A take that found no list: creates
// it (the slot, then '~') with its lifetime, or, if another take created it meanwhile, pushes
// the slot and keeps it only within the cap. Answers 1 when the slot is held, else 0.
const CREATE_SLOTS = `
local length = redis.call('LPUSHX', KEYS[1], ARGV[1])
if length == 0 then
  redis.call('RPUSH', KEYS[1], ARGV[1], '~')
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return 1
end
if length - 1 <= tonumber(ARGV[2]) then return 1 end
redis.call('LREM', KEYS[1], 0, ARGV[1])
return 0`;

// KEYS: slots, waiting room. ARGV: job id, now, cap, the room's lifetime ms.
// Run after the job moved itself to delayed: 1 when a slot came free meanwhile (the caller
// promotes the job at once), else 0 and the job waits in the room, oldest first.
const WAIT_FOR_SLOT = `${SLOTS_HELD_LUA}
if slots_held(KEYS[1], tonumber(ARGV[2])) < tonumber(ARGV[3]) then return 1 end
redis.call('ZADD', KEYS[2], 'NX', ARGV[2], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 0`;

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
  cspwatchAppendAlert: { numberOfKeys: 1, lua: APPEND_ALERT },
  cspwatchFinishAttempt: { numberOfKeys: 4, lua: FINISH_ATTEMPT },
  cspwatchEndAttemptOneNode: { numberOfKeys: 6, lua: END_ATTEMPT_ONE_NODE },
  cspwatchCreateSlots: { numberOfKeys: 1, lua: CREATE_SLOTS },
  cspwatchWaitForSlot: { numberOfKeys: 2, lua: WAIT_FOR_SLOT },
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
