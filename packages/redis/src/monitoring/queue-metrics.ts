/**
 * Prometheus metrics of the delivery queue on a prom-client `Registry`: counters and histograms
 * fed by a worker's observer, and queue-depth gauges read from Redis when scraped.
 */

import { checkBoolean, type Issue, isOptionsObject, issue } from '@cspwatch/internal';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { throwIfIssues } from '../errors';
import type { DeliveryQueue } from '../queue/delivery-queue-types';
import type { DeliveryObserver } from '../queue/observer';

/** Options of {@link queueMetrics}. */
export interface QueueMetricsOptions {
  /** Where the metrics are registered. @default a new `Registry` */
  readonly registry?: Registry;
  /**
   * The queue whose depth (`cspwatch_queue_jobs`) and disabled channels
   * (`cspwatch_disabled_channels`) are read on each scrape. Without it those gauges are not
   * registered (e.g. in every worker but one: the figures are queue-wide).
   * @default none
   */
  readonly queue?: Pick<DeliveryQueue, 'getCounts' | 'countDisabledChannels'>;
  /**
   * Adds a `channel` label (the channel id) to the counters and histograms. Each channel then
   * makes its own series: only for a few channels.
   * @default false
   */
  readonly channelLabel?: boolean;
}

/** What {@link queueMetrics} gives back. */
export interface QueueMetrics {
  /** The registry the metrics are on (the one given, or a new one). */
  readonly registry: Registry;
  /** Pass as the worker's `observer` option. */
  readonly observer: DeliveryObserver;
}

/** Attempt durations, seconds: 5 ms to 30 s (the sender's longest timeout). */
const ATTEMPT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Enqueue to 2xx, seconds: 10 ms to 4 h (the default retry schedule spans about 2.6 h). */
const LAG_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 1800, 3600, 7200, 14400];
const STATES = ['waiting', 'active', 'delayed', 'parked'] as const;

function checkOptions(options: QueueMetricsOptions): void {
  if (!isOptionsObject(options as unknown)) {
    throwIfIssues('queueMetrics', [issue('(options)', 'not_an_object', 'must be an object')]);
  }
  const issues: Issue[] = [];
  const { registry, queue, channelLabel } = options;
  if (registry !== undefined && typeof registry?.registerMetric !== 'function') {
    issues.push(issue('registry', 'invalid', 'must be a prom-client Registry (new Registry())'));
  }
  if (queue !== undefined && typeof queue?.getCounts !== 'function') {
    issues.push(issue('queue', 'invalid', 'must be a queue from createDeliveryQueue'));
  }
  checkBoolean(issues, 'channelLabel', channelLabel);
  throwIfIssues('queueMetrics', issues);
}

/**
 * Registers the queue's metrics and returns the worker observer that feeds them. Names, types
 * and labels: see docs/scaling-with-redis.md ("Metrics and health"). Call it once per registry.
 *
 * @example
 * ```ts
 * import { Registry } from 'prom-client';
 * import { queueMetrics } from '@cspwatch/redis/metrics';
 * const registry = new Registry();
 * const { observer } = queueMetrics({ registry, queue });
 * const worker = createDeliveryWorker({ connection, channels, observer });
 * ```
 */
export function queueMetrics(options: QueueMetricsOptions = {}): QueueMetrics {
  checkOptions(options);
  const registry = options.registry ?? new Registry();
  const registers = [registry];
  const withChannel = options.channelLabel === true;
  const channel = withChannel ? (['channel'] as const) : ([] as const);
  const deliveries = new Counter({
    name: 'cspwatch_deliveries_total',
    help: 'Delivery outcomes: attempts delivered or failed (reason: the cause), alerts parked (reason) or discarded.',
    labelNames: ['outcome', 'reason', ...channel],
    registers,
  });
  const attemptSeconds = new Histogram({
    name: 'cspwatch_delivery_attempt_duration_seconds',
    help: 'Duration of delivery attempts, by outcome (delivered or failed).',
    labelNames: ['outcome', ...channel],
    buckets: ATTEMPT_BUCKETS,
    registers,
  });
  const lagSeconds = new Histogram({
    name: 'cspwatch_delivery_lag_seconds',
    help: 'Time from enqueue (or release from parking) to the 2xx that delivered the alert.',
    labelNames: [...channel],
    buckets: LAG_BUCKETS,
    registers,
  });
  const disables = new Counter({
    name: 'cspwatch_channel_disables_total',
    help: "Channels disabled by this process's failed attempts.",
    labelNames: [...channel],
    registers,
  });
  if (!withChannel) {
    // Series that exist from the start, so rate() and alerts see 0 rather than nothing.
    deliveries.inc({ outcome: 'delivered' }, 0);
    deliveries.inc({ outcome: 'discarded' }, 0);
    disables.inc(0);
  }
  const { queue } = options;
  if (queue) registerGauges(queue, registers);

  const observer: DeliveryObserver = (event) => {
    const labels = withChannel ? { channel: event.channelId } : {};
    switch (event.outcome) {
      case 'delivered':
        deliveries.inc({ ...labels, outcome: 'delivered' });
        attemptSeconds.observe({ ...labels, outcome: 'delivered' }, event.durationMs / 1000);
        lagSeconds.observe(labels, Math.max(0, event.lagMs) / 1000);
        return;
      case 'failed':
        deliveries.inc({ ...labels, outcome: 'failed', reason: event.cause });
        attemptSeconds.observe({ ...labels, outcome: 'failed' }, event.durationMs / 1000);
        if (event.disabledNow) disables.inc(labels);
        return;
      case 'parked':
        deliveries.inc({ ...labels, outcome: 'parked', reason: event.reason });
        return;
      case 'discarded':
        deliveries.inc({ ...labels, outcome: 'discarded' });
    }
  };
  return { registry, observer };
}

/**
 * The gauges read on scrape: per scrape, one `getJobCounts` per shard, the parked alerts
 * counted over the channels that have some, and one `SCARD`. When Redis cannot answer (within
 * the queue's `commandTimeoutMs`), the scrape still answers: `cspwatch_queue_jobs` without a
 * sample and `cspwatch_disabled_channels` NaN, rather than a stale or made-up figure.
 */
function registerGauges(
  queue: Pick<DeliveryQueue, 'getCounts' | 'countDisabledChannels'>,
  registers: Registry[],
): void {
  new Gauge({
    name: 'cspwatch_queue_jobs',
    help: 'Alerts in the delivery queue by state: waiting, active, delayed (retry or slot wait), parked.',
    labelNames: ['state'],
    registers,
    async collect() {
      this.reset();
      const counts = await queue.getCounts().catch(() => undefined);
      if (counts) for (const state of STATES) this.set({ state }, counts[state]);
    },
  });
  new Gauge({
    name: 'cspwatch_disabled_channels',
    help: 'Channels disabled now (after enough consecutive failures), not yet re-enabled.',
    registers,
    async collect() {
      // NaN (not 0) when Redis cannot answer: an unlabelled gauge always has a sample.
      this.set(await queue.countDisabledChannels().catch(() => Number.NaN));
    },
  });
}
