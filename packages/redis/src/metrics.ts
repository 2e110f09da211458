/**
 * @cspwatch/redis/metrics: Prometheus metrics of the delivery queue, on a prom-client
 * `Registry`. Needs `prom-client` (an optional peer dependency: only this entry loads it).
 *
 * @packageDocumentation
 */

export {
  type QueueMetrics,
  type QueueMetricsOptions,
  queueMetrics,
} from './monitoring/queue-metrics';
