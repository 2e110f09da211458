/**
 * The receiver's replay claims on Redis, so every instance behind a load balancer sees the
 * deliveries any of them accepted.
 */
import type { ReplayStore } from '@cspwatch/webhooks';
import { CspwatchRedisError, callRedis } from '../errors';
import { waitForReplica } from './replication';
import { type RedisStoreOptions, resolveStoreOptions } from './store-options';

/** Default key prefix of {@link createRedisReplayStore}. */
export const DEFAULT_REPLAY_PREFIX = 'cspwatch:replay';

/**
 * A `ReplayStore` (from `@cspwatch/webhooks`) on Redis: `claim` is `SET <prefix>:<key> 1 NX PX <ttlMs>` (true when
 * Redis replied OK), `release` is `DEL <prefix>:<key>`. A Redis that cannot answer makes
 * `claim` throw a `CspwatchRedisError` (`redis_unavailable`), never answer `true`. With
 * `durability: 'replicated'` a claim counts only once a replica has it (`WAIT 1`); when none
 * confirms in time the claim is given back and `claim` throws `not_replicated` (fail closed).
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * const redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1, commandTimeout: 2000 });
 * const replayStore = createRedisReplayStore({ redis });
 * ```
 */
export function createRedisReplayStore(options: RedisStoreOptions): ReplayStore {
  const { redis, prefix, durability, replicaTimeoutMs } = resolveStoreOptions(
    'createRedisReplayStore',
    options,
    DEFAULT_REPLAY_PREFIX,
  );
  const checkKey = (key: unknown) => {
    if (typeof key !== 'string' || key === '') {
      throw new CspwatchRedisError('invalid_input', 'replay key must be a non-empty string');
    }
  };
  return {
    claim: (key, ttlMs) =>
      callRedis('replay claim', async () => {
        checkKey(key);
        if (!Number.isSafeInteger(ttlMs) || ttlMs < 1) {
          throw new CspwatchRedisError('invalid_input', 'replay ttlMs must be a positive integer');
        }
        const claimed = (await redis.set(`${prefix}:${key}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
        if (claimed && durability === 'replicated') {
          try {
            await waitForReplica(redis, `${prefix}:${key}`, replicaTimeoutMs, 'replay claim');
          } catch (error) {
            // Fail closed: a claim no replica has could vanish in a failover and let the
            // delivery in twice. Given back, and the guard answers 503 (the sender retries).
            await redis.del(`${prefix}:${key}`).catch(() => {});
            throw error;
          }
        }
        return claimed;
      }),
    release: (key) =>
      callRedis('replay release', async () => {
        checkKey(key);
        await redis.del(`${prefix}:${key}`);
      }),
  };
}
