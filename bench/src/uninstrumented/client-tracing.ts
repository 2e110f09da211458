/** Stands in for the client's `src/telemetry/tracing.ts` in the uninstrumented bench build. */
export const startCallSpan = () => undefined;
export class CallSpan {}
export class AttemptSpan {}
