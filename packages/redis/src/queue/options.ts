/**
 * Options of the delivery queue and its workers: one documented type each, defaults in one
 * frozen object, every field validated at construction.
 */
import type { ClusterNode, ClusterOptions, RedisOptions } from 'ioredis';
import { type RedisOptionIssue, throwIfIssues } from '../errors';
import type { Durability } from '../replication';
import { isTracerProvider, type TracerProvider } from '../telemetry/tracing';

/** A Redis Cluster: its seed nodes and ioredis `Cluster` options. */
export interface ClusterConnectionOptions {
  /** Seed nodes: `{ host, port }` or `'host:port'`; the client discovers the rest. */
  readonly cluster: readonly ClusterNode[];
  /** ioredis `Cluster` options (`redisOptions` for each node: password, TLS…). */
  readonly clusterOptions?: ClusterOptions;
}

/**
 * Where Redis is: a `redis://` / `rediss://` URL, ioredis connection options, or a Redis
 * Cluster's seed nodes (`{ cluster: [{ host, port }] }`).
 */
export type RedisConnectionOptions = string | RedisOptions | ClusterConnectionOptions;

/** How long history is kept, per channel. */
export interface HistoryRetentionOptions {
  /**
   * Most entries kept in a channel's history (oldest dropped first); one alert's
   * entries (`getAlertHistory`) are kept for `maxAgeMs` whatever this bound. @default 10000
   */
  readonly maxEntries?: number;
  /** Entries older than this are dropped, in ms. @default 604800000 (7 days) */
  readonly maxAgeMs?: number;
}

/** Options shared by {@link createDeliveryQueue} and {@link createDeliveryWorker}; give both the same. */
export interface DeliveryQueueBaseOptions {
  /** Where Redis is. Required. */
  readonly connection: RedisConnectionOptions;
  /** Name of the BullMQ queue. @default 'cspwatch-deliveries' */
  readonly queueName?: string;
  /** Prefix of every key (BullMQ's, the channel state's, history and parked alerts). @default 'cspwatch' */
  readonly prefix?: string;
  /** History retention. */
  readonly history?: HistoryRetentionOptions;
  /** A parked alert not released within this time expires (recorded in the history), in ms. @default 604800000 (7 days) */
  readonly parkedTtlMs?: number;
  /**
   * BullMQ queues the deliveries are spread over, by channel: each shard has its own hash tag,
   * so on Redis Cluster the shards land on different masters (give as many as masters, or a
   * multiple). Give the producers and the workers the same number. @default 1
   */
  readonly shards?: number;
  /**
   * Where the spans of `enqueue` and of each attempt go (`@opentelemetry/api`, an optional
   * peer); a worker's sender uses it too unless `sender.tracerProvider` is given.
   * @default the global tracer provider: no spans until one is registered
   */
  readonly tracerProvider?: TracerProvider;
}

/** Options of {@link createDeliveryQueue} (the producer and admin side). */
export interface DeliveryQueueOptions extends DeliveryQueueBaseOptions {
  /**
   * Delay before each attempt, in ms: the first entry is the first attempt (usually 0), so the
   * length is the number of attempts before an alert is parked as `retries_exhausted`.
   * @default [0, 5000, 300000, 1800000, 7200000] (immediately, 5 s, 5 min, 30 min, 2 h)
   */
  readonly attemptDelaysMs?: readonly number[];
  /** Each delay is drawn from `[delay × (1 − jitter), delay]`; 0 turns jitter off. @default 0.2 */
  readonly jitter?: number;
  /** Longest wait for Redis on `enqueue` and the other calls before `redis_unavailable`, in ms. @default 5000 */
  readonly commandTimeoutMs?: number;
  /**
   * What `enqueue` waits for before it resolves, unless a call says otherwise: `'primary'` (the
   * primary stored it; a failover before a replica got it can lose it) or `'replicated'` (a
   * replica confirmed it too, with `WAIT 1`; needs a replica). @default 'primary'
   */
  readonly durability?: Durability;
  /**
   * Largest alert `enqueue` takes, in bytes of its JSON (UTF-8); a larger one is refused with
   * `invalid_input` and nothing is stored. From 1024 to 16777216 (16 MiB).
   * @default 262144 (256 KiB)
   */
  readonly maxAlertBytes?: number;
}

/** Defaults of the queue and worker options. */
export const DELIVERY_QUEUE_DEFAULTS = Object.freeze({
  /** BullMQ queue name. */
  queueName: 'cspwatch-deliveries',
  /** BullMQ queues (shards) the deliveries are spread over. */
  shards: 1,
  /** Prefix of every key. */
  prefix: 'cspwatch',
  /** History entries kept per channel. */
  historyMaxEntries: 10_000,
  /** History kept for 7 days, ms. */
  historyMaxAgeMs: 7 * 24 * 3_600_000,
  /** Parked alerts expire after 7 days, ms. */
  parkedTtlMs: 7 * 24 * 3_600_000,
  /** Immediately, 5 s, 5 min, 30 min, 2 h. */
  attemptDelaysMs: Object.freeze([0, 5_000, 300_000, 1_800_000, 7_200_000]),
  /** Up to 20 % shorter at random. */
  jitter: 0.2,
  /** Producer calls fail after 5 s without Redis, ms. */
  commandTimeoutMs: 5_000,
  /** `enqueue` resolves once the primary stored the alert. */
  durability: 'primary' as Durability,
  /** Largest alert `enqueue` takes: 256 KiB of JSON. */
  maxAlertBytes: 256 * 1024,
  /** Deliveries in flight per worker. */
  concurrency: 10,
  /** BullMQ job lock, ms. */
  lockDurationMs: 30_000,
  /** BullMQ stalled-job check period, ms. */
  stalledIntervalMs: 30_000,
  /** Stalls before BullMQ fails a job, which is then parked as `worker_error`. */
  maxStalledCount: 5,
  /** Attempts in flight at once per channel, across every worker. */
  maxInFlightPerChannel: 4,
  /** Longest wait in `close()` for the deliveries in flight, ms. */
  closeTimeoutMs: 30_000,
  /** Parked-alert expiry check period, ms. */
  parkedExpiryIntervalMs: 60_000,
} as const);

/** Base options after defaults. */
export interface ResolvedBaseOptions {
  readonly connection: RedisConnectionOptions;
  readonly queueName: string;
  readonly prefix: string;
  readonly historyMaxEntries: number;
  readonly historyMaxAgeMs: number;
  readonly parkedTtlMs: number;
  readonly shards: number;
  readonly tracerProvider: TracerProvider | undefined;
}

const DAY_100 = 100 * 24 * 3_600_000;

/** Checks an optional integer in `[min, max]`; `label` explains a 0 or a negative. */
export function checkInteger(
  issues: RedisOptionIssue[],
  path: string,
  value: unknown,
  min: number,
  max: number,
): void {
  if (value === undefined) return;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max)
    return;
  issues.push({ path, message: `must be an integer from ${min} to ${max} (got ${String(value)})` });
}

/** Checks an optional queue or key-prefix name (it becomes part of Redis keys). */
export function checkName(issues: RedisOptionIssue[], path: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'string' || !/^[A-Za-z0-9_.-]{1,100}$/.test(value)) {
    issues.push({ path, message: 'must be 1-100 characters of A-Z, a-z, 0-9, _, . or -' });
  }
}

/** Checks `connection`: a redis URL, ioredis options, or `{ cluster: [seed nodes] }`. */
function checkConnection(issues: RedisOptionIssue[], connection: unknown): void {
  if (typeof connection === 'string' && /^rediss?:\/\//.test(connection)) return;
  if (typeof connection !== 'object' || connection === null || Array.isArray(connection)) {
    issues.push({
      path: 'connection',
      message:
        'is required: a redis:// URL, ioredis options such as { host, port }, or { cluster: [{ host, port }] }',
    });
    return;
  }
  if ('status' in connection && 'sendCommand' in connection) {
    issues.push({
      path: 'connection',
      message:
        'must describe where Redis is, not be a client: the queue opens its own connections (pass the URL, the options, or { cluster: [...] })',
    });
    return;
  }
  if ('cluster' in connection) {
    const { cluster } = connection as { cluster: unknown };
    if (!Array.isArray(cluster) || cluster.length === 0) {
      issues.push({
        path: 'connection.cluster',
        message: "must list the cluster's seed nodes, e.g. [{ host: '10.0.0.1', port: 6379 }]",
      });
    }
  }
}

/** Validates and resolves the shared options; pushes issues and unknown keys. */
export function resolveBaseOptions(
  options: DeliveryQueueBaseOptions,
  known: readonly string[],
  issues: RedisOptionIssue[],
): ResolvedBaseOptions {
  const { connection, history = {} } = options;
  checkConnection(issues, connection);
  checkName(issues, 'queueName', options.queueName);
  checkName(issues, 'prefix', options.prefix);
  if (typeof history !== 'object' || history === null) {
    issues.push({ path: 'history', message: 'must be an object { maxEntries, maxAgeMs }' });
  } else {
    checkInteger(issues, 'history.maxEntries', history.maxEntries, 1, 1_000_000);
    checkInteger(issues, 'history.maxAgeMs', history.maxAgeMs, 1_000, DAY_100 * 10);
  }
  checkInteger(issues, 'parkedTtlMs', options.parkedTtlMs, 1, DAY_100 * 10);
  checkInteger(issues, 'shards', options.shards, 1, 256);
  if (options.tracerProvider !== undefined && !isTracerProvider(options.tracerProvider)) {
    issues.push({
      path: 'tracerProvider',
      message: 'must be an OpenTelemetry TracerProvider (an object with getTracer)',
    });
  }
  const allowed = new Set([
    'connection',
    'queueName',
    'prefix',
    'history',
    'parkedTtlMs',
    'shards',
    'tracerProvider',
    ...known,
  ]);
  for (const key of Object.keys(options)) {
    if (!allowed.has(key)) issues.push({ path: key, message: 'unknown option' });
  }
  const defaults = DELIVERY_QUEUE_DEFAULTS;
  return {
    connection,
    queueName: options.queueName ?? defaults.queueName,
    prefix: options.prefix ?? defaults.prefix,
    historyMaxEntries: history?.maxEntries ?? defaults.historyMaxEntries,
    historyMaxAgeMs: history?.maxAgeMs ?? defaults.historyMaxAgeMs,
    parkedTtlMs: options.parkedTtlMs ?? defaults.parkedTtlMs,
    shards: options.shards ?? defaults.shards,
    tracerProvider: options.tracerProvider,
  };
}

/** Throws `invalid_options` for a non-object before anything else is read. */
export function checkOptionsObject(what: string, options: unknown): void {
  if (typeof options !== 'object' || options === null) {
    throwIfIssues(what, [{ path: '(options)', message: 'must be an object with `connection`' }]);
  }
}
