/**
 * The queue's Lua scripts, defined once per client with ioredis `defineCommand`, so each call
 * sends `EVALSHA` and a 40-byte hash instead of the script text (ioredis falls back to `EVAL`
 * after a Redis restart emptied the script cache).
 */
import type { ChainableCommander, Redis } from 'ioredis';

/**
 * Lua that appends one history entry to a stream, trimmed to `maxLen` entries and to ids from
 * `minId` on, and expiring `maxAgeMs` after its newest entry. Arguments are Lua expressions.
 */
const appendEntry = (
  stream: string,
  entry: string,
  maxLen: string,
  minId: string,
  maxAgeMs: string,
) =>
  `redis.call('XADD', ${stream}, 'MAXLEN', ${maxLen}, '*', 'e', ${entry})
redis.call('XTRIM', ${stream}, 'MINID', ${minId})
redis.call('PEXPIRE', ${stream}, ${maxAgeMs})`;

// KEYS: stream, once-key. ARGV: JSON, max entries, min id, max age ms.
// The once-key makes the append idempotent: a client that re-sends the script after a
// reconnect (the reply was lost, the write was not) does not record the entry twice.
const APPEND_HISTORY = `
if redis.call('SET', KEYS[2], '1', 'NX', 'PX', 600000) == false then return 0 end
${appendEntry('KEYS[1]', 'ARGV[1]', 'ARGV[2]', 'ARGV[3]', 'ARGV[4]')}
return 1`;

// KEYS: failures, disabled flag, history stream, once-key. ARGV: '1' for a success, the
// entry's JSON without its closing brace, failures that disable, max entries, min id, max age
// ms. One attempt's whole outcome in one atomic step: the channel state (SET 0, or INCR and
// SET NX of the flag at the threshold) and its history entry, which gets the resulting
// consecutiveFailures and disabledNow. Reply: "<failures>:<disabledNow>:<disabled>" (0/1).
// The reply is kept under the once-key, so a script re-sent after a reconnect (the reply was
// lost, the write was not) counts nothing twice and answers what the first run answered.
const RECORD_ATTEMPT = `
local done = redis.call('GET', KEYS[4])
if done then return done end
local failures, now = 0, 0
if ARGV[1] == '1' then
  redis.call('SET', KEYS[1], '0')
else
  failures = redis.call('INCR', KEYS[1])
  if failures >= tonumber(ARGV[3]) and redis.call('SET', KEYS[2], '1', 'NX') then now = 1 end
end
local disabled = now
if now == 0 then disabled = redis.call('EXISTS', KEYS[2]) end
local entry = ARGV[2] .. ',"consecutiveFailures":' .. failures .. ',"disabledNow":' .. (now == 1 and 'true' or 'false') .. '}'
${appendEntry('KEYS[3]', 'entry', 'ARGV[4]', 'ARGV[5]', 'ARGV[6]')}
local reply = failures .. ':' .. now .. ':' .. disabled
redis.call('SET', KEYS[4], reply, 'PX', 600000)
return reply`;

// KEYS: channel parked set, all parked, parked data, disabled flag.
// ARGV: entry id, parked at, JSON, '1' when it must only park while the channel is disabled.
const PARK = `
if ARGV[4] == '1' and redis.call('EXISTS', KEYS[4]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
return 1`;

// KEYS: all parked, parked data. ARGV: cutoff time, batch size, per-channel key prefix.
const TAKE_EXPIRED = `
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

const SCRIPTS = {
  cspwatchAppendHistory: { numberOfKeys: 2, lua: APPEND_HISTORY },
  cspwatchPark: { numberOfKeys: 4, lua: PARK },
  cspwatchRecordAttempt: { numberOfKeys: 4, lua: RECORD_ATTEMPT },
  cspwatchTakeExpired: { numberOfKeys: 2, lua: TAKE_EXPIRED },
} as const;

type ScriptName = keyof typeof SCRIPTS;
type Scripted<R> = Record<ScriptName, (...keysAndArgs: string[]) => R>;

/** A client (or a MULTI/pipeline made from it) on which the queue's scripts are defined. */
export type ScriptedRedis = Redis & Scripted<Promise<unknown>>;
/** A MULTI or pipeline of a {@link ScriptedRedis}. */
export type ScriptedCommands = ChainableCommander & Scripted<ChainableCommander>;

/** Defines the queue's scripts on a client the queue created (once). */
export function defineQueueScripts(redis: Redis): ScriptedRedis {
  for (const [name, definition] of Object.entries(SCRIPTS)) {
    if (!(name in redis)) redis.defineCommand(name, definition);
  }
  return redis as ScriptedRedis;
}

/** A MULTI on a scripted client, typed with the scripts. */
export function multi(redis: ScriptedRedis): ScriptedCommands {
  return redis.multi() as ScriptedCommands;
}
