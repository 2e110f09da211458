/**
 * A fetch-style handler that serves a worker's health (and Prometheus metrics) to Kubernetes
 * probes and scrapers: `(Request) => Promise<Response>`, like the mock server's core, so any
 * HTTP server or framework can mount it.
 */
import type { DeliveryWorkerHealth } from '../queue/health';

/** The part of a prom-client `Registry` the handler uses (prom-client is never imported here). */
export interface MetricsRegistry {
  /** Content type of the text `metrics()` gives. */
  readonly contentType: string;
  /** Every metric in the Prometheus text format. */
  metrics(): Promise<string>;
}

/** Options of {@link healthHandler}. */
export interface HealthHandlerOptions {
  /** The worker whose `health()` is served. */
  readonly worker: {
    /** See `DeliveryWorker.health`. */
    health(): DeliveryWorkerHealth;
  };
  /** Served at `/metrics` when given (else `/metrics` is 404). @default none */
  readonly registry?: MetricsRegistry;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A fetch-style handler for `GET /healthz` (readiness: 200 with the health as JSON when `ok`,
 * else 503 with the same JSON), `GET /livez` (liveness: 200 while the process answers and the
 * worker is not closing, whatever Redis does) and `GET /metrics` (the registry's text).
 * Other paths are 404, other methods 405.
 *
 * @example
 * ```ts
 * const handle = healthHandler({ worker, registry });
 * Bun.serve({ port: 9464, fetch: handle }); // or any node:http adapter of (Request) => Response
 * ```
 */
export function healthHandler(
  options: HealthHandlerOptions,
): (request: Request) => Promise<Response> {
  const { worker, registry } = options;
  return async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname !== '/healthz' && pathname !== '/livez' && pathname !== '/metrics') {
      return new Response('not found\n', { status: 404 });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response('method not allowed\n', { status: 405, headers: { allow: 'GET, HEAD' } });
    }
    if (pathname === '/metrics') {
      if (!registry) return new Response('no metrics registry\n', { status: 404 });
      let text: string;
      try {
        text = await registry.metrics();
      } catch {
        return new Response('metrics could not be collected\n', { status: 500 });
      }
      return new Response(text, { headers: { 'content-type': registry.contentType } });
    }
    const health = worker.health();
    const status = (pathname === '/healthz' ? health.ok : !health.closing) ? 200 : 503;
    return new Response(JSON.stringify(health), { status, headers: { 'content-type': JSON_TYPE } });
  };
}
