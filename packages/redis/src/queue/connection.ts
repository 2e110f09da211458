/**
 * The ioredis clients of the queue. The producer fails fast (no offline queue, bounded
 * connect and command timeouts) so `enqueue` says "Redis is unreachable" instead of hanging;
 * a worker waits and reconnects for ever (BullMQ needs `maxRetriesPerRequest: null`).
 */
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { CspwatchRedisError } from '../errors';
import type { RedisConnectionOptions } from './options';
import { defineQueueScripts, type QueueClient, type ScriptedRedis } from './scripts';

/**
 * Opens a client with `settings` on top of the user's options: a `Redis`, or a `Cluster` whose
 * every node connection gets them (`settings.enableAutoPipelining` applies to the cluster).
 */
function connect(
  connection: RedisConnectionOptions,
  settings: RedisOptions,
  redirectionsFor: number,
): ScriptedRedis {
  let redis: QueueClient;
  if (typeof connection === 'string') redis = new Redis(connection, settings);
  else if ('cluster' in connection) {
    const { enableAutoPipelining, enableOfflineQueue, ...perNode } = settings;
    const options = connection.clusterOptions ?? {};
    // While a slot moves, each ASK or TRYAGAIN (retried every 100 ms) spends one redirection:
    // enough of them to last `redirectionsFor` ms, so our own deadline is the one that counts.
    const retryMs = options.retryDelayOnTryAgain ?? 100;
    redis = new Cluster([...connection.cluster], {
      maxRedirections: 2 * Math.ceil(redirectionsFor / Math.max(1, retryMs)),
      ...options,
      ...(enableAutoPipelining === undefined ? {} : { enableAutoPipelining }),
      ...(enableOfflineQueue === undefined ? {} : { enableOfflineQueue }),
      redisOptions: { ...options.redisOptions, ...perNode },
    });
  } else redis = new Redis({ ...connection, ...settings });
  return defineQueueScripts(redis);
}

/** A client for the producer side: every call fails within about `timeoutMs` when Redis is down. */
export function connectProducer(
  connection: RedisConnectionOptions,
  timeoutMs: number,
): ScriptedRedis {
  const redis = connect(
    connection,
    {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: timeoutMs,
      commandTimeout: timeoutMs,
    },
    timeoutMs,
  );
  redis.on('error', () => {}); // reported to the caller as redis_unavailable, call by call
  return redis;
}

/** A client for workers: commands wait for a reconnect instead of failing. */
export function connectWorker(
  connection: RedisConnectionOptions,
  onError: (error: unknown) => void,
  settings: RedisOptions = {},
): ScriptedRedis {
  // A worker waits out a slot move however long it takes (a minute of redirections).
  const redis = connect(
    connection,
    { ...settings, maxRetriesPerRequest: null, enableReadyCheck: true },
    60_000,
  );
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

/** The calls waiting for one client to be ready, and how to stop listening for it. */
interface ReadyWait {
  /** Each is called with `true` once the client is ready, `false` if it ends first. */
  readonly waiters: Set<(ready: boolean) => void>;
  readonly stop: () => void;
}

// One `ready` listener per client, however many calls wait: a listener per call piles up
// (MaxListenersExceededWarning) when many producers call during an outage. A call that gives
// up leaves the set, and the last one to leave removes the listeners.
const waitsByClient = new WeakMap<QueueClient, ReadyWait>();

function startWait(redis: QueueClient): ReadyWait {
  const waiters = new Set<(ready: boolean) => void>();
  const settle = (ready: boolean) => {
    wait.stop();
    for (const waiter of waiters) waiter(ready);
  };
  const onReady = () => settle(true);
  const onEnd = () => settle(false);
  const wait: ReadyWait = {
    waiters,
    stop() {
      redis.off('ready', onReady);
      redis.off('end', onEnd);
      if (waitsByClient.get(redis) === wait) waitsByClient.delete(redis);
    },
  };
  redis.once('ready', onReady);
  redis.once('end', onEnd);
  waitsByClient.set(redis, wait);
  return wait;
}

/** Joins the client's wait for `ready` (or `end`); returns how to leave it. */
function joinWait(redis: QueueClient, onSettled: (ready: boolean) => void): () => void {
  const wait = waitsByClient.get(redis) ?? startWait(redis);
  wait.waiters.add(onSettled);
  return () => {
    wait.waiters.delete(onSettled);
    if (wait.waiters.size === 0) wait.stop();
  };
}

const closed = (what: string) =>
  new CspwatchRedisError('invalid_input', `${what}: the queue is closed`);

/**
 * Resolves once the client is connected; rejects with `redis_unavailable` after `timeoutMs`
 * (a producer has no offline queue, so a command sent before that would fail at once).
 * Concurrent calls share one `ready` listener; none is left once no call waits.
 */
export function untilReady(what: string, redis: QueueClient, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  if (redis.status === 'end') return Promise.reject(closed(what));
  let leave = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    leave = joinWait(redis, (isReady) => (isReady ? resolve() : reject(closed(what))));
  });
  return withTimeout(what, ready, timeoutMs).finally(leave);
}
