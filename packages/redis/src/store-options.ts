/**
 * The options both stores take: an ioredis client and a key prefix, validated at construction.
 */
import type { Cluster, Redis } from 'ioredis';
import { type RedisOptionIssue, throwIfIssues } from './errors';

/** Options shared by {@link createRedisChannelStateStore} and {@link createRedisReplayStore}. */
export interface RedisStoreOptions {
  /**
   * A connected ioredis client: `new Redis(url)`, or `new Cluster(nodes)` for Redis Cluster
   * (every key the store touches together shares one hash tag). The store never closes it. For
   * a web request path, give it bounded waits so a down Redis fails fast instead of hanging,
   * e.g. `{ maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 2000 }`.
   */
  readonly redis: Redis | Cluster;
  /** Prefix of every key the store writes (no trailing `:`). */
  readonly prefix?: string;
}

const CLIENT_METHODS = ['get', 'set', 'del', 'mget', 'multi', 'defineCommand'] as const;

/** Validates the options; returns the client and the prefix. */
export function resolveStoreOptions(
  what: string,
  options: RedisStoreOptions,
  defaultPrefix: string,
): { redis: Redis | Cluster; prefix: string } {
  const issues: RedisOptionIssue[] = [];
  if (typeof options !== 'object' || options === null) {
    throwIfIssues(what, [{ path: '(options)', message: 'must be an object with `redis`' }]);
  }
  const { redis, prefix = defaultPrefix } = options;
  if (typeof redis !== 'object' || redis === null) {
    issues.push({
      path: 'redis',
      message: 'is required: an ioredis client (new Redis(url) or new Cluster(nodes))',
    });
  } else if (CLIENT_METHODS.some((name) => typeof redis[name] !== 'function')) {
    issues.push({
      path: 'redis',
      message: 'must be an ioredis client (new Redis(url) or new Cluster(nodes))',
    });
  }
  if (typeof prefix !== 'string' || prefix === '' || prefix.endsWith(':')) {
    issues.push({ path: 'prefix', message: 'must be a non-empty string not ending in ":"' });
  }
  const known = new Set(['redis', 'prefix']);
  for (const key of Object.keys(options)) {
    if (!known.has(key)) issues.push({ path: key, message: 'unknown option' });
  }
  throwIfIssues(what, issues);
  return { redis, prefix };
}
