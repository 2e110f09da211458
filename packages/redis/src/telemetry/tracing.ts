/**
 * Traces of the delivery queue through `@opentelemetry/api` (an optional peer), with the
 * messaging conventions: `enqueue` is a PRODUCER span `send <queue>` whose context travels in
 * the job (`traceContext`, the W3C `traceparent` and `tracestate`); each attempt of a worker
 * is a CONSUMER span `process <queue>`, child of that context and linked to it, and the
 * sender's attempt span is its child. The only module of this package that touches the API at
 * run time: loaded once, on the first queue or worker created; when it is not installed
 * every call here does nothing and no job carries a trace context.
 */
import { requireOptionalPeer } from '@cspwatch/internal';
import type * as OpenTelemetry from '@opentelemetry/api';
import type { Span } from '@opentelemetry/api';
import { VERSION } from '../version';

/**
 * The part of an OpenTelemetry `TracerProvider` the queue uses; the `tracerProvider` option.
 * Declared here, not imported, so the queue's types compile without `@opentelemetry/api`.
 */
export interface QueueTracerProvider {
  /** Returns a tracer; the queue asks for one named `@cspwatch/redis` with its version. */
  getTracer(name: string, version?: string): unknown;
}

/** The tracer's name: this package. */
const TRACER_NAME = '@cspwatch/redis';
/** Not among the conventions' well-known systems, so its own name, as BullMQ's telemetry uses. */
const MESSAGING_SYSTEM = 'bullmq';
/** Longest id kept in an attribute (the queue accepts ids of up to 256 characters). */
const MAX_ID = 256;
/** W3C: `tracestate` holds at most 32 members of at most 256 characters; keep it small anyway. */
const MAX_TRACESTATE = 512;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
/** `SpanKind.PRODUCER`, `SpanKind.CONSUMER` and `SpanStatusCode.ERROR`, without a value import. */
const PRODUCER = 3;
const CONSUMER = 4;
const ERROR = 2;

/** The trace context a job carries: the W3C Trace Context headers of its `enqueue` span. */
export interface JobTraceContext {
  readonly traceparent: string;
  readonly tracestate?: string;
}

/** What a delivery job tells its process span. */
interface TracedJob {
  readonly id?: string | undefined;
  readonly attemptsMade: number;
  readonly data: {
    readonly channelId: string;
    readonly alert: { readonly id: string };
    readonly priorAttempts: number;
    readonly traceContext?: JobTraceContext;
  };
}

/** The queue's tracing: the producer side and the worker side. */
export interface QueueTracing {
  /**
   * Runs `add` (which stores the job) inside a `send` span; hands it the fields to spread into
   * the job's data: `{ traceContext }`, or nothing when there is no trace to continue.
   */
  send<T extends { readonly jobId: string }>(
    channelId: string,
    alertId: string,
    add: (fields: { traceContext?: JobTraceContext }) => Promise<T>,
  ): Promise<T>;
  /** Runs one attempt of `job` inside a `process` span. */
  process<T>(job: TracedJob, run: () => Promise<T>): Promise<T>;
}

let api: typeof OpenTelemetry | null | undefined;

/** `@opentelemetry/api`, required once from this package's place; `null` when not installed. */
function loadApi(): typeof OpenTelemetry | null {
  if (api === undefined)
    api = requireOptionalPeer<typeof OpenTelemetry>('@opentelemetry/api', import.meta.url);
  return api;
}

const OFF: QueueTracing = Object.freeze({
  send: <T>(_c: string, _a: string, add: (fields: object) => Promise<T>) => add({}),
  process: <T>(_job: TracedJob, run: () => Promise<T>) => run(),
});

const bounded = (id: string) => (id.length > MAX_ID ? id.slice(0, MAX_ID) : id);

/** The job fields of a span's context, or none when it has no valid context. */
function injected(otel: typeof OpenTelemetry, span: Span): { traceContext?: JobTraceContext } {
  const context = span.spanContext();
  if (!otel.trace.isSpanContextValid(context)) return {};
  const flags = (context.traceFlags & 0xff).toString(16).padStart(2, '0');
  const traceparent = `00-${context.traceId}-${context.spanId}-${flags}`;
  const tracestate = context.traceState?.serialize() ?? '';
  const keep = tracestate !== '' && tracestate.length <= MAX_TRACESTATE;
  return { traceContext: keep ? { traceparent, tracestate } : { traceparent } };
}

/** The span context a job carries, or `undefined` when it has none or it is malformed. */
function extracted(
  otel: typeof OpenTelemetry,
  carried: JobTraceContext | undefined,
): OpenTelemetry.SpanContext | undefined {
  const match = typeof carried?.traceparent === 'string' && TRACEPARENT.exec(carried.traceparent);
  if (!match) return undefined;
  const tracestate = carried?.tracestate;
  const context: OpenTelemetry.SpanContext = {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: Number.parseInt(match[3]!, 16),
    isRemote: true,
    ...(typeof tracestate === 'string' && tracestate.length <= MAX_TRACESTATE
      ? { traceState: otel.createTraceState(tracestate) }
      : {}),
  };
  return otel.trace.isSpanContextValid(context) ? context : undefined;
}

/** Marks `span` as failed by `error`: its `code` (a typed error), else its class name. */
function fail(span: Span, error: unknown): void {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  const type = typeof code === 'string' ? code : typeof name === 'string' ? name : 'Error';
  span.setAttribute('error.type', type);
  span.setStatus({ code: ERROR, message: type });
}

/**
 * The tracing of a queue or worker: on `tracerProvider` when given, else on the global one
 * (the OpenTelemetry guidance for libraries). Off, at almost no cost, when the API is not
 * installed; with no provider registered, spans are not recorded and jobs carry nothing.
 */
export function createQueueTracing(
  queueName: string,
  tracerProvider: QueueTracerProvider | undefined,
): QueueTracing {
  const otel = loadApi();
  if (!otel) return OFF;
  const tracer = (tracerProvider ?? otel.trace).getTracer(
    TRACER_NAME,
    VERSION,
  ) as OpenTelemetry.Tracer;
  const messaging = (operation: 'send' | 'process') => ({
    'messaging.system': MESSAGING_SYSTEM,
    'messaging.operation.type': operation,
    'messaging.operation.name': operation,
    'messaging.destination.name': queueName,
  });
  return {
    async send(channelId, alertId, add) {
      const span = tracer.startSpan(`send ${queueName}`, { kind: PRODUCER });
      if (span.isRecording()) {
        span.setAttributes({
          ...messaging('send'),
          'cspwatch.channel.id': bounded(channelId),
          'cspwatch.alert.id': bounded(alertId),
        });
      }
      try {
        const added = await otel.context.with(otel.trace.setSpan(otel.context.active(), span), () =>
          add(injected(otel, span)),
        );
        span.setAttribute('messaging.message.id', added.jobId);
        return added;
      } catch (error) {
        fail(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
    async process(job, run) {
      const { channelId, alert, priorAttempts, traceContext } = job.data;
      const creation = extracted(otel, traceContext);
      // One message per span: the creation context is its parent (one trace from `enqueue` to
      // the receiver's answer) and its link (what the conventions ask of every consumer).
      const parent = creation
        ? otel.trace.setSpanContext(otel.context.active(), creation)
        : otel.context.active();
      const span = tracer.startSpan(
        `process ${queueName}`,
        { kind: CONSUMER, ...(creation ? { links: [{ context: creation }] } : {}) },
        parent,
      );
      if (!otel.trace.isSpanContextValid(span.spanContext())) return run();
      if (span.isRecording()) {
        span.setAttributes({
          ...messaging('process'),
          ...(job.id === undefined ? {} : { 'messaging.message.id': job.id }),
          'cspwatch.channel.id': bounded(channelId),
          'cspwatch.alert.id': bounded(alert.id),
          'cspwatch.delivery.attempt': priorAttempts + job.attemptsMade + 1,
        });
      }
      try {
        return await otel.context.with(otel.trace.setSpan(parent, span), run);
      } catch (error) {
        // A job handed back (BullMQ's DelayedError) is not a failure; a failed attempt thrown for
        // a retry already noted its cause (noteAttemptOutcome).
        const name = (error as { name?: unknown })?.name;
        if (name !== 'DelayedError' && name !== 'AttemptFailedError') fail(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  };
}

/**
 * Notes how an attempt went on the active `process` span: `error.type` is the sender's cause
 * (or the channel problem) of a failed attempt.
 */
export function noteAttemptOutcome(ok: boolean, cause: string | null): void {
  const span = api?.trace.getActiveSpan();
  if (!span?.isRecording()) return;
  if (cause !== null) span.setAttribute('cspwatch.delivery.cause', cause);
  if (!ok) {
    span.setAttribute('error.type', cause ?? 'network');
    span.setStatus({ code: ERROR, message: cause ?? 'network' });
  }
}

/** Whether `value` looks like an OpenTelemetry `TracerProvider` (has `getTracer`). */
export function isTracerProvider(value: unknown): value is QueueTracerProvider {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { getTracer?: unknown }).getTracer === 'function'
  );
}
