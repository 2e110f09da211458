/**
 * Tracing in tests: an OpenTelemetry SDK provider that keeps finished spans in memory, the
 * async-hooks context manager (so the active span follows `await`), and the scan that no
 * secret reached a span. Shared with the queue's tests in `@cspwatch/redis`.
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** A provider and its exporter; `close()` also removes the global context manager. */
export function startTracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  return {
    provider,
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    reset: () => exporter.reset(),
    async close() {
      await provider.shutdown();
      context.disable();
    },
  };
}

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
