/**
 * The no-op stand-in for `packages/webhook-sender/src/telemetry/tracing.ts` in the
 * uninstrumented build (src/uninstrumented-build.ts): the same names, nothing traced.
 */
type Outcome = { readonly ok: boolean };

const NO_SPAN = Object.freeze({
  run: <T extends Outcome>(send: () => Promise<T>) => send(),
  noteState: () => {},
  end: () => {},
});
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** No tracing at all. */
export const createSenderTracing = (_provider?: unknown) => ({ startAttempt: () => NO_SPAN });
/** No header added. */
export const traceHeaders = () => NO_HEADERS;
/** The same option check as the real module. */
export const isTracerProvider = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { getTracer?: unknown }).getTracer === 'function';
