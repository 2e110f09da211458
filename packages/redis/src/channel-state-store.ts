/**
 * The sender's channel state on Redis: every method is one atomic Redis command (or one
 * MULTI), so any number of sender processes share one failure count and one disabled flag.
 */

import { randomUUID } from 'node:crypto';
import type { ChannelState, ChannelStateStore } from '@cspwatch/webhook-sender';
import { channelStateKeys } from './channel-state-keys';
import { callRedis } from './errors';
import { type RedisStoreOptions, resolveStoreOptions } from './store-options';

/** Default key prefix of {@link createRedisChannelStateStore}. */
export const DEFAULT_CHANNEL_STATE_PREFIX = 'cspwatch:channel';

/**
 * A `ChannelStateStore` (from `@cspwatch/webhook-sender`) on Redis. Keys (the `{id}` hash tag keeps both keys of a channel
 * in one cluster slot): `<prefix>:{<id>}:failures` and `<prefix>:{<id>}:disabled`.
 *
 * | method | Redis |
 * |---|---|
 * | `get` | `MGET failures disabled` |
 * | `recordFailure` | `INCR failures` |
 * | `recordSuccess` | `SET failures 0` |
 * | `disable` | `SET disabled <token> NX GET` (true when it set the flag, or when the flag holds this call's token) |
 * | `enable` | `MULTI; DEL disabled; SET failures 0; EXEC` |
 *
 * `disable` writes a token unique to the call: if the connection drops after Redis applied the
 * command and the client sends it again, the second reply still names this call as the one
 * that disabled the channel, so a channel is reported disabled exactly once.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * const store = createRedisChannelStateStore({ redis: new Redis(process.env.REDIS_URL!) });
 * const sender = createWebhookSender({ store });
 * ```
 */
export function createRedisChannelStateStore(options: RedisStoreOptions): ChannelStateStore {
  const { redis, prefix } = resolveStoreOptions(
    'createRedisChannelStateStore',
    options,
    DEFAULT_CHANNEL_STATE_PREFIX,
  );
  const { failures: failuresKey, disabled: disabledKey } = channelStateKeys(prefix);
  const call = <T>(what: string, run: () => Promise<T>) => callRedis(`channel state ${what}`, run);
  return {
    get: (channelId) =>
      call('get', async (): Promise<ChannelState> => {
        const [failures, disabled] = await redis.mget(
          failuresKey(channelId),
          disabledKey(channelId),
        );
        return { consecutiveFailures: Number(failures ?? 0), disabled: disabled !== null };
      }),
    recordFailure: (channelId) => call('recordFailure', () => redis.incr(failuresKey(channelId))),
    recordSuccess: (channelId) =>
      call('recordSuccess', async () => {
        await redis.set(failuresKey(channelId), '0');
      }),
    disable: (channelId) =>
      call('disable', async () => {
        const token = randomUUID();
        const previous = await redis.set(disabledKey(channelId), token, 'NX', 'GET');
        return previous === null || previous === token;
      }),
    enable: (channelId) =>
      call('enable', async () => {
        const replies = await redis
          .multi()
          .del(disabledKey(channelId))
          .set(failuresKey(channelId), '0')
          .exec();
        const failed = replies?.find(([error]) => error !== null)?.[0];
        if (replies === null || failed) throw failed ?? new Error('MULTI was discarded');
      }),
  };
}
