/**
 * The ioredis clients of the queue. The producer fails fast (no offline queue, bounded
 * connect and command timeouts) so `enqueue` says "Redis is unreachable" instead of hanging;
 * a worker waits and reconnects for ever (BullMQ needs `maxRetriesPerRequest: null`).
 */
import { Redis, type RedisOptions } from 'ioredis';
import { CspwatchRedisError } from '../errors';
import type { RedisConnectionOptions } from './options';
import { defineQueueScripts, type ScriptedRedis } from './scripts';

function connect(connection: RedisConnectionOptions, settings: RedisOptions): ScriptedRedis {
  const redis =
    typeof connection === 'string'
      ? new Redis(connection, settings)
      : new Redis({ ...connection, ...settings });
  return defineQueueScripts(redis);
}

/** A client for the producer side: every call fails within about `timeoutMs` when Redis is down. */
export function connectProducer(
  connection: RedisConnectionOptions,
  timeoutMs: number,
): ScriptedRedis {
  const redis = connect(connection, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
  });
  redis.on('error', () => {}); // reported to the caller as redis_unavailable, call by call
  return redis;
}

/** A client for workers: commands wait for a reconnect instead of failing. */
export function connectWorker(
  connection: RedisConnectionOptions,
  onError: (error: unknown) => void,
  settings: RedisOptions = {},
): ScriptedRedis {
  const redis = connect(connection, {
    ...settings,
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
  });
  redis.on('error', onError); // ioredis reconnects on its own; jobs resume when it is back
  return redis;
}

/** Rejects with `redis_unavailable` when `work` has not settled after `timeoutMs`. */
export function withTimeout<T>(what: string, work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new CspwatchRedisError(
            'redis_unavailable',
            `${what}: Redis is unreachable (no answer within ${timeoutMs} ms); nothing was recorded, retry later`,
          ),
        ),
      timeoutMs,
    );
  });
  work.catch(() => {}); // a late failure after the timeout must not be unhandled
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Resolves once the client is connected; rejects with `redis_unavailable` after `timeoutMs`
 * (a producer has no offline queue, so a command sent before that would fail at once).
 */
export function untilReady(what: string, redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  if (redis.status === 'end') {
    return Promise.reject(new CspwatchRedisError('invalid_input', `${what}: the queue is closed`));
  }
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    onReady = resolve;
    redis.once('ready', onReady);
  });
  return withTimeout(what, ready, timeoutMs).finally(() => redis.off('ready', onReady));
}
