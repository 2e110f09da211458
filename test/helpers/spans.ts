/**
 * Tracing in the tests of several workspace packages (client, mock server, sender, queue): an
 * OpenTelemetry SDK provider that keeps finished spans in memory, the async-hooks context
 * manager (so the active span follows `await`), the W3C propagator when a test follows a trace
 * over HTTP, and the scan that no secret reached a span.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

export type { ReadableSpan };

/** Options of {@link startTracing}. */
export interface TracingOptions {
  /** Also register the W3C `traceparent` propagator globally. @default false */
  propagate?: boolean;
}

/**
 * A provider and its in-memory exporter, with the global context manager set. `close()` shuts
 * the provider down and removes every global it or the test set: tracer provider, propagator,
 * context manager.
 */
export function startTracing({ propagate = false }: TracingOptions = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  if (propagate) propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return {
    provider,
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    reset: () => exporter.reset(),
    async close() {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/** What {@link startTracing} gives a test. */
export type Tracing = ReturnType<typeof startTracing>;

/** Every text a span shows: name, status message, attribute values, events and links. */
export function spanTexts(span: ReadableSpan): string[] {
  const values = (attributes: object | undefined) =>
    Object.entries(attributes ?? {}).flatMap(([key, value]) => [key, String(value)]);
  return [
    span.name,
    span.status.message ?? '',
    ...values(span.attributes),
    ...span.events.flatMap((event) => [event.name, ...values(event.attributes)]),
    ...span.links.flatMap((link) => values(link.attributes)),
  ];
}

/** The spans' texts that contain one of `secrets` (empty when none leaked). */
export function leakedSecrets(spans: readonly ReadableSpan[], secrets: readonly string[]) {
  return spans.flatMap((span) =>
    spanTexts(span)
      .filter((text) => secrets.some((secret) => secret !== '' && text.includes(secret)))
      .map((text) => `${span.name}: ${text}`),
  );
}
