/**
 * @cspwatch/redis/health: a fetch-style `(Request) => Promise<Response>` handler for a delivery
 * worker's `/healthz` and `/livez` (Kubernetes readiness and liveness probes) and, given a
 * prom-client registry, `/metrics`. Imports neither prom-client nor an HTTP framework.
 *
 * @packageDocumentation
 */

export {
  type HealthHandlerOptions,
  healthHandler,
  type MetricsRegistry,
} from './monitoring/health-handler';
