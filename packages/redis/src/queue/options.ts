/**
 * Options of the delivery queue and its workers: one documented type each, defaults in one
 * frozen object, and one zod schema per factory that checks every field and fills in those
 * defaults at construction.
 */
import {
  checkUnknownKeys,
  describeValue,
  type Issue,
  isOptionsObject,
  issue,
  issuesFromZod,
} from '@cspwatch/internal';
import type { ClusterNode, ClusterOptions, RedisOptions } from 'ioredis';
import * as z from 'zod/mini';
import { throwIfIssues } from '../errors';
import { DURABILITIES, type Durability } from '../stores/replication';
import { isTracerProvider, type QueueTracerProvider } from '../telemetry/tracing';

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
  readonly tracerProvider?: QueueTracerProvider;
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
  readonly tracerProvider: QueueTracerProvider | undefined;
}

const DAY_100 = 100 * 24 * 3_600_000;
const MAX_DELAY_MS = 30 * 24 * 3_600_000;
const defaults = DELIVERY_QUEUE_DEFAULTS;

/** An integer option in `[min, max]`, worded as every cspwatch package words it. */
export function integer(min: number, max: number, unit = 'ms') {
  const range = `an integer from ${min} to ${max}${unit ? ` (${unit})` : ''}`;
  const error = (problem: { input?: unknown }) =>
    `must be ${range}, got ${describeValue(problem.input)}`;
  return z.int({ error }).check(z.gte(min, { error }), z.lte(max, { error }));
}

/** A queue name or key prefix: it becomes part of Redis keys. */
const NAME_RULE = 'must be 1-100 characters of A-Z, a-z, 0-9, _, . or -';
const name = z.string({ error: NAME_RULE }).check(z.regex(/^[A-Za-z0-9_.-]{1,100}$/, NAME_RULE));

/** Where the queue's keys are: shared by the queue, its workers and `deliveryQueueShards`. */
export const locationShape = {
  queueName: z._default(name, defaults.queueName),
  prefix: z._default(name, defaults.prefix),
  shards: z._default(integer(1, 256, ''), defaults.shards),
};

const HISTORY_RULE = 'must be an object { maxEntries, maxAgeMs }';

/** The options every factory of the queue takes ({@link DeliveryQueueBaseOptions}). */
export const baseShape = {
  // Any value here: `checkConnection` names each accepted form in its messages.
  connection: z.custom<RedisConnectionOptions>(),
  ...locationShape,
  history: z._default(
    z.object(
      {
        maxEntries: z._default(integer(1, 1_000_000, ''), defaults.historyMaxEntries),
        maxAgeMs: z._default(integer(1_000, DAY_100 * 10), defaults.historyMaxAgeMs),
      },
      { error: HISTORY_RULE },
    ),
    { maxEntries: defaults.historyMaxEntries, maxAgeMs: defaults.historyMaxAgeMs },
  ),
  parkedTtlMs: z._default(integer(1, DAY_100 * 10), defaults.parkedTtlMs),
  tracerProvider: z.optional(
    z.custom<QueueTracerProvider>(isTracerProvider, {
      error: 'must be an OpenTelemetry TracerProvider (an object with getTracer)',
    }),
  ),
};

const DELAYS_RULE = 'must be an array of 1 to 100 delays in ms';
const JITTER_RULE = (problem: { input?: unknown }) =>
  `must be a number from 0 to 1, got ${describeValue(problem.input)}`;

/** {@link DeliveryQueueOptions}, checked, with their defaults. */
export const deliveryQueueSchema = z.object({
  ...baseShape,
  attemptDelaysMs: z._default(
    z
      .array(integer(0, MAX_DELAY_MS), { error: DELAYS_RULE })
      .check(z.minLength(1, DELAYS_RULE), z.maxLength(100, DELAYS_RULE)),
    [...defaults.attemptDelaysMs],
  ),
  jitter: z._default(
    z
      .number({ error: JITTER_RULE })
      .check(z.gte(0, { error: JITTER_RULE }), z.lte(1, { error: JITTER_RULE })),
    defaults.jitter,
  ),
  commandTimeoutMs: z._default(integer(1, 600_000), defaults.commandTimeoutMs),
  maxAlertBytes: z._default(integer(1024, 16 * 1024 * 1024, 'bytes'), defaults.maxAlertBytes),
  durability: z._default(
    z.enum(DURABILITIES as [Durability, ...Durability[]], {
      error: "must be 'primary' or 'replicated'",
    }),
    defaults.durability,
  ),
});

/** Checks `connection`: a redis URL, ioredis options, or `{ cluster: [seed nodes] }`. */
function checkConnection(issues: Issue[], connection: unknown): void {
  if (typeof connection === 'string' && /^rediss?:\/\//.test(connection)) return;
  if (!isOptionsObject(connection)) {
    issues.push(
      issue(
        'connection',
        connection === undefined ? 'required' : 'invalid',
        'is required: a redis:// URL, ioredis options such as { host, port }, or { cluster: [{ host, port }] }',
      ),
    );
    return;
  }
  if ('status' in connection && 'sendCommand' in connection) {
    issues.push(
      issue(
        'connection',
        'invalid',
        'must describe where Redis is, not be a client: the queue opens its own connections (pass the URL, the options, or { cluster: [...] })',
      ),
    );
    return;
  }
  if ('cluster' in connection) {
    const { cluster } = connection as { cluster: unknown };
    if (!Array.isArray(cluster) || cluster.length === 0) {
      issues.push(
        issue(
          'connection.cluster',
          'invalid',
          "must list the cluster's seed nodes, e.g. [{ host: '10.0.0.1', port: 6379 }]",
        ),
      );
    }
  }
}

/**
 * Checks `options` against `schema` and returns them with their defaults; throws
 * `invalid_options` listing every problem. A key the schema does not have is refused, with the
 * key it most likely meant, unless `otherKeys` is `'ignore'`.
 */
export function parseOptions<Shape extends z.core.$ZodLooseShape>(
  what: string,
  schema: z.ZodMiniObject<Shape>,
  options: unknown,
  otherKeys: 'refuse' | 'ignore' = 'refuse',
): z.output<z.ZodMiniObject<Shape>> {
  if (!isOptionsObject(options)) {
    const expected = 'connection' in schema.shape ? 'an object with `connection`' : 'an object';
    throwIfIssues(what, [issue('(options)', 'not_an_object', `must be ${expected}`)]);
  }
  const issues: Issue[] = [];
  if ('connection' in schema.shape)
    checkConnection(issues, (options as Record<string, unknown>).connection);
  const parsed = schema.safeParse(options);
  if (!parsed.success) issues.push(...issuesFromZod(parsed.error.issues));
  if (otherKeys === 'refuse')
    checkUnknownKeys(issues, options as object, Object.keys(schema.shape));
  throwIfIssues(what, issues);
  return parsed.data as z.output<z.ZodMiniObject<Shape>>;
}

/** The shared options of a parse, in the form the queue and the worker read them. */
export function toBaseOptions(
  parsed: z.output<z.ZodMiniObject<typeof baseShape>>,
): ResolvedBaseOptions {
  return {
    connection: parsed.connection,
    queueName: parsed.queueName,
    prefix: parsed.prefix,
    historyMaxEntries: parsed.history.maxEntries,
    historyMaxAgeMs: parsed.history.maxAgeMs,
    parkedTtlMs: parsed.parkedTtlMs,
    shards: parsed.shards,
    tracerProvider: parsed.tracerProvider,
  };
}
