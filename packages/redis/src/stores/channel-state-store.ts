/**
 * The sender's channel state on Redis: every method is one atomic Redis command, one MULTI or
 * one script, so any number of sender processes share one failure count and one disabled flag.
 */

import { randomUUID } from 'node:crypto';
import type {
  ChannelAttempt,
  ChannelState,
  ChannelStateStore,
  RecordedAttempt,
} from '@cspwatch/webhook-sender';
import type { Cluster, Redis } from 'ioredis';
import { callRedis } from '../errors';
import { type ChannelStateKeys, channelStateKeys } from './channel-state-keys';
import { waitForReplica } from './replication';
import { type RedisStoreOptions, resolveStoreOptions } from './store-options';

/** Default key prefix of {@link createRedisChannelStateStore}. */
export const DEFAULT_CHANNEL_STATE_PREFIX = 'cspwatch:channel';

/**
 * The channel rule in Lua, the one home of its Redis form: `record_attempt(failures, disabled,
 * ok, failuresToDisable)` counts one attempt on a channel's keys and answers the failures
 * after it, 1 when this call disabled the channel (else 0), and the disabled flag (0/1). A
 * success sets the count to 0 (the flag stays); a failure increments it and, at the threshold,
 * sets the flag with `NX`, so exactly one caller is told it disabled the channel. For scripts
 * that count an attempt among other writes (the delivery worker's end of an attempt).
 */
export const RECORD_ATTEMPT_LUA = `
local function record_attempt(failures_key, disabled_key, ok, failures_to_disable)
  if ok then
    redis.call('SET', failures_key, '0')
    return 0, 0, redis.call('EXISTS', disabled_key)
  end
  local failures = redis.call('INCR', failures_key)
  if failures >= failures_to_disable and redis.call('SET', disabled_key, '1', 'NX') then
    return failures, 1, 1
  end
  return failures, 0, redis.call('EXISTS', disabled_key)
end`;

// KEYS: failures, disabled flag, once-key. ARGV: '1' for a success, failures that disable.
// A success is idempotent. A failure is counted once: its reply is kept under a once-key
// unique to the call, so a script re-sent after a reconnect (the reply was lost, the write was
// not) counts nothing twice and answers what the first run answered.
// Reply: "<failures>:<disabledNow>:<disabled>" (0/1).
const RECORD_ATTEMPT = `${RECORD_ATTEMPT_LUA}
if ARGV[1] == '1' then
  local failures, now, disabled = record_attempt(KEYS[1], KEYS[2], true, 0)
  return failures .. ':' .. now .. ':' .. disabled
end
local done = redis.call('GET', KEYS[3])
if done then return done end
local failures, now, disabled = record_attempt(KEYS[1], KEYS[2], false, tonumber(ARGV[2]))
local reply = failures .. ':' .. now .. ':' .. disabled
redis.call('SET', KEYS[3], reply, 'PX', 600000)
return reply`;

const SCRIPT_NAME = 'cspwatchRecordChannelAttempt';

type WithScript = (Redis | Cluster) &
  Record<typeof SCRIPT_NAME, (...keysAndArgs: string[]) => Promise<string>>;

/** Defines the script on the client once (ioredis sends `EVALSHA`, and `EVAL` after a flush). */
function withRecordScript(redis: Redis | Cluster): WithScript {
  if (!(SCRIPT_NAME in redis)) {
    redis.defineCommand(SCRIPT_NAME, { numberOfKeys: 3, lua: RECORD_ATTEMPT });
  }
  return redis as WithScript;
}

/** Parses the script's reply. */
function toRecordedAttempt(reply: string): RecordedAttempt {
  const [failures, now, disabled] = reply.split(':');
  return {
    consecutiveFailures: Number(failures),
    disabled: disabled === '1',
    disabledNow: now === '1',
  };
}

/**
 * Lists a channel in the disabled-channels index (or unlists it), then follows the flag if a
 * racing enable or disable changed it: after each disable (by `recordAttempt`, `disable`, or a
 * script that counts attempts with {@link RECORD_ATTEMPT_LUA}) and each enable.
 */
export async function indexDisabledChannel(
  redis: Redis | Cluster,
  keys: ChannelStateKeys,
  channelId: string,
  disabled: boolean,
): Promise<void> {
  const index = (on: boolean) =>
    on
      ? redis.sadd(keys.disabledChannels, channelId)
      : redis.srem(keys.disabledChannels, channelId);
  await index(disabled);
  const flagged = (await redis.exists(keys.disabled(channelId))) === 1;
  if (flagged !== disabled) await index(flagged);
}

/**
 * A `ChannelStateStore` (from `@cspwatch/webhook-sender`) on Redis. Keys (the `{id}` hash tag
 * keeps every key of a channel in one cluster slot): `<prefix>:{<id>}:failures`,
 * `<prefix>:{<id>}:disabled`, and a short-lived once-key per counted failure.
 *
 * | method | Redis |
 * |---|---|
 * | `get` | `MGET failures disabled` |
 * | `recordAttempt` | one script: a success `SET failures 0`; a failure `INCR failures` and, at the threshold, `SET disabled 1 NX` (only that call is `disabledNow`) |
 * | `disable` | `SET disabled <token> NX GET` (true when it set the flag, or when the flag holds this call's token) |
 * | `enable` | `MULTI; DEL disabled; SET failures 0; EXEC` |
 *
 * Each disable (by `recordAttempt` or `disable`) then adds the channel to the set
 * `<prefix>:disabled-channels` and `enable` removes it, each then reading the flag again and
 * following it (a racing enable or disable), so metrics count disabled channels with one
 * `SCARD`. That set is another key (another cluster slot), written after the flag: it is a
 * count for dashboards; the flag alone decides.
 *
 * A command re-sent by the client after a reconnect counts nothing twice: a failure's reply is
 * kept under a key unique to the call, and `disable` writes a token unique to the call.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * const store = createRedisChannelStateStore({ redis: new Redis(process.env.REDIS_URL!) });
 * const sender = createWebhookSender({ store });
 * ```
 */
export function createRedisChannelStateStore(options: RedisStoreOptions): ChannelStateStore {
  const { redis, prefix, durability, replicaTimeoutMs } = resolveStoreOptions(
    'createRedisChannelStateStore',
    options,
    DEFAULT_CHANNEL_STATE_PREFIX,
  );
  const keys = channelStateKeys(prefix);
  const scripted = withRecordScript(redis);
  const call = <T>(what: string, run: () => Promise<T>) => callRedis(`channel state ${what}`, run);
  const indexDisabled = (channelId: string, disabled: boolean) =>
    indexDisabledChannel(redis, keys, channelId, disabled);
  return {
    get: (channelId) =>
      call('get', async (): Promise<ChannelState> => {
        const [failures, disabled] = await redis.mget(
          keys.failures(channelId),
          keys.disabled(channelId),
        );
        return { consecutiveFailures: Number(failures ?? 0), disabled: disabled !== null };
      }),
    recordAttempt: (channelId, attempt: ChannelAttempt) =>
      call('recordAttempt', async () => {
        const recorded = toRecordedAttempt(
          await scripted[SCRIPT_NAME](
            keys.failures(channelId),
            keys.disabled(channelId),
            keys.once(channelId, randomUUID()),
            attempt.ok ? '1' : '0',
            String(attempt.failuresToDisable),
          ),
        );
        if (recorded.disabledNow) await indexDisabled(channelId, true);
        // The disable is answered once only after a replica has it, so a failover cannot undo
        // it and let a second caller disable the channel again.
        if (recorded.disabledNow && durability === 'replicated') {
          await waitForReplica(redis, keys.disabled(channelId), replicaTimeoutMs, 'disable');
        }
        return recorded;
      }),
    disable: (channelId) =>
      call('disable', async () => {
        const token = randomUUID();
        const previous = await redis.set(keys.disabled(channelId), token, 'NX', 'GET');
        const disabledNow = previous === null || previous === token;
        if (disabledNow) await indexDisabled(channelId, true);
        return disabledNow;
      }),
    enable: (channelId) =>
      call('enable', async () => {
        const replies = await redis
          .multi()
          .del(keys.disabled(channelId))
          .set(keys.failures(channelId), '0')
          .exec();
        const failed = replies?.find(([error]) => error !== null)?.[0];
        if (replies === null || failed) throw failed ?? new Error('MULTI was discarded');
        await indexDisabled(channelId, false);
      }),
  };
}
