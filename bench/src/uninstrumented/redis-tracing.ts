/**
 * The no-op stand-in for `packages/redis/src/telemetry/tracing.ts` in the uninstrumented
 * build (src/uninstrumented-build.ts): the same names, nothing traced, nothing in the jobs.
 */
const OFF = Object.freeze({
  send: <T>(_channelId: string, _alertId: string, add: (fields: object) => Promise<T>) => add({}),
  process: <T>(_job: unknown, run: () => Promise<T>) => run(),
});

/** No tracing at all. */
export const createQueueTracing = (_queueName: string, _provider?: unknown) => OFF;
/** Notes nothing. */
export const noteAttemptOutcome = (_ok: boolean, _cause: string | null) => {};
/** The same option check as the real module. */
export const isTracerProvider = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { getTracer?: unknown }).getTracer === 'function';
