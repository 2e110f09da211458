import { redactUrls } from '@cspwatch/contract';
import { requireOptionalPeer } from '@cspwatch/internal';
import type * as OpenTelemetry from '@opentelemetry/api';

/*
 * Server spans through `@opentelemetry/api`, an optional peer: the only module of the mock
 * that touches it at run time, required lazily and once (through `process.getBuiltinModule`,
 * like the client, so no bundle or size check meets a `node:module` import). One SERVER span per request the
 * service answers (node server, msw handlers and CLI alike: they all call `service.fetch`),
 * continuing the caller's trace from its `traceparent`, and only while a provider records.
 */

type Api = typeof OpenTelemetry;

/** The part of an OpenTelemetry `TracerProvider` the mock uses; the `tracerProvider` option. */
export interface MockTracerProvider {
  /** Returns a tracer; the mock asks for one named `@cspwatch/mock-server` with its version. */
  getTracer(name: string, version?: string): unknown;
}

const TRACER_NAME = '@cspwatch/mock-server';
/** Methods `http.request.method` names as they are; any other is `_OTHER` (semantic conventions). */
const KNOWN_METHODS = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'TRACE',
]);

let api: Api | null | undefined;

/** `@opentelemetry/api`, required once from this package's place; `null` when not installed. */
function loadApi(): Api | null {
  if (api === undefined) api = requireOptionalPeer<Api>('@opentelemetry/api', import.meta.url);
  return api;
}

/** The span of each request being answered, so the router can name its route. */
const spans = new WeakMap<Request, { span: OpenTelemetry.Span; method: string }>();

const headerGetter: OpenTelemetry.TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

/**
 * Answers `request` with `serve` inside a SERVER span when a provider records: the span
 * continues the trace of an incoming `traceparent` and is active while `serve` runs.
 */
export async function serveTraced(
  request: Request,
  version: string,
  provider: MockTracerProvider | undefined,
  serve: () => Promise<Response>,
): Promise<Response> {
  const otel = api === undefined ? loadApi() : api;
  if (!otel) return serve();
  const tracer = (provider ?? otel.trace.getTracerProvider()).getTracer(
    TRACER_NAME,
    version,
  ) as OpenTelemetry.Tracer;
  const parent = otel.propagation.extract(otel.context.active(), request.headers, headerGetter);
  const url = new URL(request.url);
  const method = KNOWN_METHODS.has(request.method) ? request.method : '_OTHER';
  const attributes: OpenTelemetry.Attributes = {
    'http.request.method': method,
    'url.scheme': url.protocol.slice(0, -1),
    'url.path': url.pathname,
    'server.address': url.hostname,
    'server.port': Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
  };
  if (method === '_OTHER') attributes['http.request.method_original'] = request.method;
  // Every query value goes (the control API takes its token as `?token=`); the names stay.
  if (url.search) attributes['url.query'] = redactUrls(`/${url.search}`).slice(2);
  const name = method === '_OTHER' ? 'HTTP' : method;
  const span = tracer.startSpan(name, { kind: otel.SpanKind.SERVER, attributes }, parent);
  if (!span.isRecording()) return serve();
  spans.set(request, { span, method: name });
  try {
    const response = await otel.context.with(otel.trace.setSpan(parent, span), serve);
    if (response.type === 'error') {
      span.setAttribute('error.type', 'connection_dropped');
      span.setStatus({ code: otel.SpanStatusCode.ERROR });
    } else {
      span.setAttribute('http.response.status_code', response.status);
      if (response.status >= 500) {
        span.setAttribute('error.type', String(response.status));
        span.setStatus({ code: otel.SpanStatusCode.ERROR });
      }
    }
    return response;
  } finally {
    spans.delete(request);
    span.end();
  }
}

/** Names the route that matched `request` (`http.route` and the span name), when traced. */
export function recordRoute(request: Request, segments: readonly string[]): void {
  const traced = spans.get(request);
  if (!traced) return;
  const route = `/${segments.join('/')}`;
  traced.span.setAttribute('http.route', route);
  traced.span.updateName(`${traced.method} ${route}`);
}
