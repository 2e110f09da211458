/**
 * The options both stores take: an ioredis client and a key prefix, validated at construction.
 */
import { checkInteger, checkUnknownKeys, isOptionsObject, issue } from '@cspwatch/internal';
import type { Cluster, Redis } from 'ioredis';
import { type RedisOptionIssue, throwIfIssues } from '../errors';
import { DURABILITIES, type Durability } from './replication';

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
  /**
   * What a write that matters waits for before it counts (the replay store: each claim; the
   * channel state store: the failure that disables a channel): `'primary'`, or `'replicated'`
   * (`WAIT 1`: a replica has it, so a failover keeps it). Needs a replica. @default 'primary'
   */
  readonly durability?: Durability;
  /** Longest wait for a replica with `durability: 'replicated'`, in ms. @default 1000 */
  readonly replicaTimeoutMs?: number;
}

/** Store options after validation. */
export interface ResolvedStoreOptions {
  readonly redis: Redis | Cluster;
  readonly prefix: string;
  readonly durability: Durability;
  readonly replicaTimeoutMs: number;
}

const CLIENT_METHODS = ['get', 'set', 'del', 'mget', 'multi', 'defineCommand'] as const;

/** Validates the options; returns the client and the prefix. */
export function resolveStoreOptions(
  what: string,
  options: RedisStoreOptions,
  defaultPrefix: string,
): ResolvedStoreOptions {
  if (!isOptionsObject(options as unknown)) {
    throwIfIssues(what, [issue('(options)', 'not_an_object', 'must be an object with `redis`')]);
  }
  const issues: RedisOptionIssue[] = [];
  const {
    redis,
    prefix = defaultPrefix,
    durability = 'primary',
    replicaTimeoutMs = 1000,
  } = options;
  if (typeof redis !== 'object' || redis === null) {
    issues.push(
      issue(
        'redis',
        'required',
        'is required: an ioredis client (new Redis(url) or new Cluster(nodes))',
      ),
    );
  } else if (CLIENT_METHODS.some((name) => typeof redis[name] !== 'function')) {
    issues.push(
      issue('redis', 'invalid', 'must be an ioredis client (new Redis(url) or new Cluster(nodes))'),
    );
  }
  if (typeof prefix !== 'string' || prefix === '' || prefix.endsWith(':')) {
    issues.push(issue('prefix', 'invalid', 'must be a non-empty string not ending in ":"'));
  }
  if (!DURABILITIES.includes(durability)) {
    issues.push(issue('durability', 'invalid', "must be 'primary' or 'replicated'"));
  }
  checkInteger(issues, 'replicaTimeoutMs', replicaTimeoutMs, { min: 1, max: 60_000, unit: 'ms' });
  checkUnknownKeys(issues, options, ['redis', 'prefix', 'durability', 'replicaTimeoutMs']);
  throwIfIssues(what, issues);
  return { redis, prefix, durability, replicaTimeoutMs };
}
