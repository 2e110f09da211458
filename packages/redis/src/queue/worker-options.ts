/**
 * Options of `createDeliveryWorker`: the type, and their validation at construction.
 */
import type { DeliveryChannel, WebhookSenderOptions } from '@cspwatch/webhook-sender';
import { type RedisOptionIssue, throwIfIssues } from '../errors';
import type { DeliveryObserver } from './observer';
import {
  checkInteger,
  checkOptionsObject,
  DELIVERY_QUEUE_DEFAULTS,
  type DeliveryQueueBaseOptions,
  type ResolvedBaseOptions,
  resolveBaseOptions,
} from './options';

/** Looks up a channel by id when a job runs (so secrets never sit in Redis); `undefined` when deleted. */
export type ChannelLookup = (
  channelId: string,
) => DeliveryChannel | null | undefined | Promise<DeliveryChannel | null | undefined>;

/** Options of {@link createDeliveryWorker}. */
export interface DeliveryWorkerOptions extends DeliveryQueueBaseOptions {
  /** Finds the channel (URL and secret) of a job. Required. */
  readonly channels: ChannelLookup;
  /** Deliveries in flight at once in this process. @default 10 */
  readonly concurrency?: number;
  /**
   * Options of the sender the worker creates. Its `store` is the worker's: the Redis channel
   * state store on this queue's keys, which the parking of alerts reads too.
   */
  readonly sender?: Omit<WebhookSenderOptions, 'store'>;
  /**
   * Attempts in flight at once for one channel, across every worker of the queue: a slow or
   * dead endpoint holds at most this many delivery slots; its other alerts wait (delayed, not
   * counted) until a slot frees. @default 4
   */
  readonly maxInFlightPerChannel?: number;
  /**
   * Longest wait of `close()` for the deliveries in flight, in ms; past it the worker closes
   * anyway and BullMQ hands its jobs to another worker once their lock runs out. Keep it above
   * the sender's `timeoutMs`, so a rolling restart waits for every delivery. @default 30000
   */
  readonly closeTimeoutMs?: number;
  /** A job whose worker stops renewing its lock for this long is taken by another worker, in ms. @default 30000 */
  readonly lockDurationMs?: number;
  /** How often workers look for stalled jobs, in ms. @default 30000 */
  readonly stalledIntervalMs?: number;
  /** Times a job may stall (its worker died) before BullMQ fails it; it is then parked as `worker_error`. @default 5 */
  readonly maxStalledCount?: number;
  /** How often a worker expires parked alerts older than `parkedTtlMs`, in ms. @default 60000 */
  readonly parkedExpiryIntervalMs?: number;
  /**
   * Called with the errors a worker recovers from on its own (Redis connection lost, an expiry
   * sweep that failed), e.g. to log them. Never called with a secret.
   * @default ignores them
   */
  readonly onError?: (error: Error) => void;
  /**
   * Told each outcome (delivered, failed, parked, discarded) as it happens, synchronously; pass
   * `queueMetrics(…).observer` from `@cspwatch/redis/metrics` for Prometheus metrics.
   * @default none (no cost)
   */
  readonly observer?: DeliveryObserver;
}

const WORKER_KEYS = [
  'channels',
  'concurrency',
  'sender',
  'lockDurationMs',
  'stalledIntervalMs',
  'maxStalledCount',
  'parkedExpiryIntervalMs',
  'maxInFlightPerChannel',
  'closeTimeoutMs',
  'onError',
  'observer',
];

/** Validates the worker's options; returns the shared ones and a safe `onError` caller. */
export function resolveWorkerOptions(what: string, options: DeliveryWorkerOptions) {
  checkOptionsObject(what, options);
  const issues: RedisOptionIssue[] = [];
  const resolved = resolveBaseOptions(options, WORKER_KEYS, issues);
  if (typeof options.channels !== 'function') {
    issues.push({
      path: 'channels',
      message: 'is required: a function (channelId) => { id, url, secret }',
    });
  }
  checkInteger(issues, 'concurrency', options.concurrency, 1, 10_000);
  checkInteger(issues, 'lockDurationMs', options.lockDurationMs, 100, 3_600_000);
  checkInteger(issues, 'stalledIntervalMs', options.stalledIntervalMs, 100, 3_600_000);
  checkInteger(issues, 'maxStalledCount', options.maxStalledCount, 1, 1_000);
  checkInteger(issues, 'parkedExpiryIntervalMs', options.parkedExpiryIntervalMs, 100, 86_400_000);
  checkInteger(issues, 'maxInFlightPerChannel', options.maxInFlightPerChannel, 1, 1_000);
  checkInteger(issues, 'closeTimeoutMs', options.closeTimeoutMs, 0, 3_600_000);
  if (
    options.sender !== undefined &&
    (typeof options.sender !== 'object' || options.sender === null)
  ) {
    issues.push({ path: 'sender', message: 'must be an object of webhook sender options' });
  } else if (options.sender && 'store' in options.sender) {
    issues.push({
      path: 'sender.store',
      message:
        "is the worker's (the Redis channel state store on the queue's keys, which parking reads too); remove it",
    });
  }
  if (options.onError !== undefined && typeof options.onError !== 'function') {
    issues.push({ path: 'onError', message: 'must be a function (error) => void' });
  }
  if (options.observer !== undefined && typeof options.observer !== 'function') {
    issues.push({
      path: 'observer',
      message:
        'must be a function (event) => void, e.g. queueMetrics({ registry, queue }).observer',
    });
  }
  throwIfIssues(what, issues);
  const report = (error: unknown): void => {
    try {
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // a throwing hook must not stop the worker
    }
  };
  const base: ResolvedBaseOptions = resolved;
  return { base, report, defaults: DELIVERY_QUEUE_DEFAULTS };
}
