/**
 * Traces of deliveries through `@opentelemetry/api` (an optional peer): one CLIENT span per
 * HTTP attempt, with the stable HTTP client conventions and a few `cspwatch.` attributes. The
 * only module of this package that touches the API at run time; it is loaded once, on the
 * first sender created, and when it is not installed every call here does nothing.
 *
 * What a span never carries: the secret, the signature, the body, the response, error texts,
 * and the target URL (webhook URLs often hold a capability token in their path, which no
 * query redaction removes: `server.address` and `server.port` say where it went).
 */
import { requireOptionalPeer } from '@cspwatch/internal';
import type * as OpenTelemetry from '@opentelemetry/api';
import type { Span } from '@opentelemetry/api';
import { VERSION } from '../version';

/**
 * The part of an OpenTelemetry `TracerProvider` the sender uses; the `tracerProvider` option.
 * Declared here, not imported, so the sender's types compile without `@opentelemetry/api`.
 */
export interface SenderTracerProvider {
  /** Returns a tracer; the sender asks for one named `@cspwatch/webhook-sender` with its version. */
  getTracer(name: string, version?: string): unknown;
}

/** What a span reads of an attempt's outcome (the delivery module's `AttemptOutcome` fits). */
interface AttemptOutcome {
  readonly ok: boolean;
  readonly status: number | null;
  readonly cause: string | null;
}

/** What a span reads of the channel's state after the attempt was counted. */
interface CountedState {
  readonly consecutiveFailures: number;
  readonly disabledNow: boolean;
}

/** The tracer's name: this package. */
const TRACER_NAME = '@cspwatch/webhook-sender';
/**
 * Longest id or host kept in an attribute: nothing bounds a caller's channel id, and the span
 * starts before the target check refuses a host longer than DNS allows.
 */
const MAX_ID = 256;
/** `SpanKind.CLIENT` and `SpanStatusCode.ERROR`, as numbers so no value import is needed. */
const CLIENT = 2;
const ERROR = 2;

let api: typeof OpenTelemetry | null | undefined;

/** `@opentelemetry/api`, required once from this package's place; `null` when not installed. */
function loadApi(): typeof OpenTelemetry | null {
  if (api === undefined)
    api = requireOptionalPeer<typeof OpenTelemetry>('@opentelemetry/api', import.meta.url);
  return api;
}

/** One attempt's span; the no-op one when tracing is off. */
export interface AttemptSpan {
  /** Runs the HTTP attempt as the active span; notes its outcome and when it ended. */
  run<T extends AttemptOutcome>(send: () => Promise<T>): Promise<T>;
  /** Notes the channel's state after the attempt was counted. */
  noteState(state: CountedState): void;
  /** Ends the span (at the end of the HTTP attempt, when it ran). */
  end(): void;
}

/** Starts attempt spans for one sender. */
export interface SenderTracing {
  /** Starts the span of one attempt to `channel` (`test` for the Test action). */
  startAttempt(
    channel: { readonly id: string; readonly url: string },
    alertId: string,
    test: boolean,
  ): AttemptSpan;
}

const NO_SPAN: AttemptSpan = Object.freeze({
  run: <T>(send: () => Promise<T>) => send(),
  noteState: () => {},
  end: () => {},
});
const OFF: SenderTracing = Object.freeze({ startAttempt: () => NO_SPAN });

const bounded = (id: string) => (id.length > MAX_ID ? id.slice(0, MAX_ID) : id);

/** `error.type`: the status code for an HTTP error answer (as the conventions ask), else the cause. */
const errorType = (outcome: AttemptOutcome) =>
  outcome.cause === 'http_status' && outcome.status !== null
    ? String(outcome.status)
    : (outcome.cause ?? 'network');

/** `server.address` and `server.port` of a target URL, when it parses. */
function serverAttributes(url: string): OpenTelemetry.Attributes {
  try {
    const { hostname, port, protocol } = new URL(url);
    const address = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
    const defaultPort = protocol === 'http:' ? 80 : 443;
    return {
      'server.address': bounded(address),
      'server.port': port === '' ? defaultPort : Number(port),
      'url.scheme': protocol.slice(0, -1),
    };
  } catch {
    return {};
  }
}

function activeSpan(otel: typeof OpenTelemetry, span: Span): AttemptSpan {
  const parent = otel.trace.setSpan(otel.context.active(), span);
  let endedAt: number | undefined;
  return {
    async run(send) {
      try {
        const outcome = await otel.context.with(parent, send);
        if (outcome.status !== null) span.setAttribute('http.response.status_code', outcome.status);
        if (!outcome.ok) {
          const type = errorType(outcome);
          span.setAttribute('error.type', type);
          span.setStatus({ code: ERROR, message: type });
        }
        if (outcome.cause) span.setAttribute('cspwatch.delivery.cause', outcome.cause);
        return outcome;
      } finally {
        endedAt = performance.now();
      }
    },
    noteState(state) {
      span.setAttribute('cspwatch.channel.consecutive_failures', state.consecutiveFailures);
      span.setAttribute('cspwatch.delivery.disabled_now', state.disabledNow);
    },
    end: () => span.end(endedAt),
  };
}

/**
 * The tracing of one sender: on `tracerProvider` when given, else on the global one (the
 * OpenTelemetry guidance for libraries). Off, at almost no cost, when the API is not installed
 * or no provider samples the span.
 */
export function createSenderTracing(
  tracerProvider: SenderTracerProvider | undefined,
): SenderTracing {
  const otel = loadApi();
  if (!otel) return OFF;
  const tracer = (tracerProvider ?? otel.trace).getTracer(
    TRACER_NAME,
    VERSION,
  ) as OpenTelemetry.Tracer;
  return {
    startAttempt(channel, alertId, test) {
      const span = tracer.startSpan('POST', { kind: CLIENT });
      // A span that is not sampled still carries its context on (so a child cannot start a
      // trace of its own); only a span with no valid context is skipped altogether.
      if (!otel.trace.isSpanContextValid(span.spanContext())) return NO_SPAN;
      if (span.isRecording()) {
        span.setAttributes({
          'http.request.method': 'POST',
          ...serverAttributes(channel.url),
          'cspwatch.channel.id': bounded(channel.id),
          'cspwatch.alert.id': bounded(alertId),
          'cspwatch.delivery.test': test,
        });
      }
      return activeSpan(otel, span);
    },
  };
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The W3C `traceparent` header of the active span, for the receiver (its verifier checks only
 * the timestamp and signature headers, so an extra header changes nothing there). Only
 * `traceparent`: no `tracestate` and no baggage leave for a third party's endpoint.
 */
export function traceHeaders(): Readonly<Record<string, string>> {
  if (!api) return NO_HEADERS;
  const context = api.trace.getActiveSpan()?.spanContext();
  if (!context || !api.trace.isSpanContextValid(context)) return NO_HEADERS;
  const flags = (context.traceFlags & 0xff).toString(16).padStart(2, '0');
  return { traceparent: `00-${context.traceId}-${context.spanId}-${flags}` };
}

/** Whether `value` looks like an OpenTelemetry `TracerProvider` (has `getTracer`). */
export function isTracerProvider(value: unknown): value is SenderTracerProvider {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { getTracer?: unknown }).getTracer === 'function'
  );
}
