import { redactUrls } from '@cspwatch/contract';
import { requireOptionalPeer } from '@cspwatch/internal';
import type * as OpenTelemetry from '@opentelemetry/api';
import { isCspwatchError } from '../errors/cspwatch-error';
import { VERSION } from '../version';

/*
 * Traces through `@opentelemetry/api`, an optional peer: the only module of the client that
 * touches it at run time. The API is required lazily, once, through a `require` that bundlers
 * do not see (`process.getBuiltinModule`, Node >= 20.16): without the API installed, or on a
 * runtime without `process.getBuiltinModule`, every call gets `undefined` and traces nothing.
 * Span shape: one INTERNAL span per API call (`cspwatch listApiKeys`), one CLIENT child per
 * HTTP attempt with the HTTP client semantic conventions; each attempt carries `traceparent`.
 */

type Api = typeof OpenTelemetry;

/** The part of an OpenTelemetry `TracerProvider` the client uses; the `tracerProvider` option. */
export interface CspwatchTracerProvider {
  /** Returns a tracer; the client asks for one named `@cspwatch/client` with its version. */
  getTracer(name: string, version?: string): unknown;
}

/** What the transport tells about one API call. Internal. */
export interface TracedCall {
  /** The operation id of the contract, e.g. `listApiKeys`. */
  operation: string;
  method: string;
  /** The path template, e.g. `/v1/workspaces/{workspaceId}/api-keys`. */
  route: string;
  /** The full URL of the request (query included; redacted before it is recorded). */
  url: string;
}

const TRACER_NAME = '@cspwatch/client';

let api: Api | null | undefined;

/** `@opentelemetry/api`, required once from this package's place; `null` when not installed. */
function loadApi(): Api | null {
  if (api === undefined) api = requireOptionalPeer<Api>('@opentelemetry/api', import.meta.url);
  return api;
}

const tracers = new WeakMap<CspwatchTracerProvider, OpenTelemetry.Tracer>();
let globalTracer: OpenTelemetry.Tracer | undefined;

function tracerOf(otel: Api, provider: CspwatchTracerProvider | undefined): OpenTelemetry.Tracer {
  // The global tracer is a proxy: it follows a provider registered after it was taken.
  if (!provider) {
    globalTracer ??= otel.trace.getTracer(TRACER_NAME, VERSION);
    return globalTracer;
  }
  let tracer = tracers.get(provider);
  if (!tracer) {
    tracer = provider.getTracer(TRACER_NAME, VERSION) as OpenTelemetry.Tracer;
    tracers.set(provider, tracer);
  }
  return tracer;
}

/** `server.port`: the URL's port, or the scheme's default. */
const portOf = (url: URL) => Number(url.port) || (url.protocol === 'https:' ? 443 : 80);

/** `error.type` of a failure: the client's error code, else the error's class name. */
function errorType(error: unknown): string {
  if (isCspwatchError(error)) return error.code;
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name ? name : '_OTHER';
}

/** The CLIENT span of one HTTP attempt. Internal. */
export class AttemptSpan {
  readonly #otel: Api;
  readonly #span: OpenTelemetry.Span;
  readonly #context: OpenTelemetry.Context;

  /** Starts the span under the call's span and writes `traceparent` into `headers`. */
  constructor(call: CallSpan, otel: Api, headers: Headers, resendCount: number) {
    this.#otel = otel;
    const { method, route, url } = call.call;
    const parsed = new URL(url);
    const attributes: OpenTelemetry.Attributes = {
      'http.request.method': method,
      'url.full': redactUrls(url),
      'url.template': route,
      'server.address': parsed.hostname,
      'server.port': portOf(parsed),
    };
    if (resendCount > 0) attributes['http.request.resend_count'] = resendCount;
    const options = { kind: otel.SpanKind.CLIENT, attributes };
    this.#span = call.tracer.startSpan(`${method} ${route}`, options, call.context);
    this.#context = otel.trace.setSpan(call.context, this.#span);
    otel.propagation.inject(this.#context, headers, {
      set: (carrier, key, value) => carrier.set(key, value),
    });
  }

  /** Runs `send` with this attempt's span active, so instrumented `fetch`es nest under it. */
  run<T>(send: () => T): T {
    return this.#otel.context.with(this.#context, send);
  }

  /** Ends the attempt with the status received (4xx and 5xx are errors), or the failure. */
  end(status: number | undefined, error?: unknown): void {
    const span = this.#span;
    if (status !== undefined) span.setAttribute('http.response.status_code', status);
    const failed = status === undefined || status >= 400;
    if (failed) {
      span.setAttribute('error.type', status === undefined ? errorType(error) : String(status));
      span.setStatus({ code: this.#otel.SpanStatusCode.ERROR });
    }
    span.end();
  }
}

/** The INTERNAL span of one API call, parent of its attempts. Internal. */
export class CallSpan {
  readonly #otel: Api;
  readonly #span: OpenTelemetry.Span;
  /** The context the attempts start in: the call's span in the caller's context. */
  readonly context: OpenTelemetry.Context;

  /** Starts the span in the caller's active context. */
  constructor(
    otel: Api,
    readonly tracer: OpenTelemetry.Tracer,
    readonly call: TracedCall,
  ) {
    this.#otel = otel;
    const parent = otel.context.active();
    this.#span = tracer.startSpan(`cspwatch ${call.operation}`, {}, parent);
    this.context = otel.trace.setSpan(parent, this.#span);
  }

  /** Whether there is anything to do: the span records, or a caller's trace goes on through it. */
  get live(): boolean {
    return (
      this.#span.isRecording() || this.#otel.trace.isSpanContextValid(this.#span.spanContext())
    );
  }

  /** Starts the span of an attempt (1 for the first) and puts `traceparent` in `headers`. */
  attempt(headers: Headers, attempt: number): AttemptSpan {
    return new AttemptSpan(this, this.#otel, headers, attempt - 1);
  }

  /** Ends the call: OK, or ERROR with `error.type` when it failed. */
  end(error?: unknown): void {
    if (error !== undefined) {
      this.#span.setAttribute('error.type', errorType(error));
      this.#span.setStatus({ code: this.#otel.SpanStatusCode.ERROR });
    }
    this.#span.end();
  }
}

/**
 * Starts the span of one API call, or returns `undefined` when there is nothing to do: the API
 * is not installed, or no provider records and no caller's trace goes on. Internal.
 */
export function startCallSpan(
  provider: CspwatchTracerProvider | undefined,
  call: TracedCall,
): CallSpan | undefined {
  const otel = api === undefined ? loadApi() : api;
  if (!otel) return undefined;
  const span = new CallSpan(otel, tracerOf(otel, provider), call);
  // No provider registered and no trace to continue: a no-op span, dropped at once.
  return span.live ? span : undefined;
}
