/*
 * The signal of one call: follows the caller's signal and, given a time limit, aborts when
 * the call's total budget runs out. The caller's signal may live for the whole process (a
 * shutdown signal); handing it to ky would make ky call `AbortSignal.any([callerSignal, …])`
 * on every request, and Node 20 keeps a reference to each combined signal on the source.
 * One listener, removed when the call ends, leaves nothing behind on the caller's signal.
 */

/** A signal for one call, and the function that detaches it. Internal. */
export interface LinkedSignal {
  /** Aborts, with the same reason, when the caller's signal aborts (or the time is up). */
  signal: AbortSignal | undefined;
  /** Stops following the caller's signal and the timer; call it once the call is over. */
  release(): void;
}

const nothing = () => {};

/**
 * Creates a signal following `signal` (none when the caller gave none and no `limit`);
 * with `limit`, it also aborts with `limit.reason()` after `limit.ms`. Internal.
 */
export function linkSignal(
  signal: AbortSignal | undefined,
  limit?: { ms: number; reason: () => unknown },
): LinkedSignal {
  if (signal === undefined && limit === undefined) return { signal: undefined, release: nothing };
  const controller = new AbortController();
  if (signal?.aborted) {
    controller.abort(signal.reason);
    return { signal: controller.signal, release: nothing };
  }
  const forward = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', forward, { once: true });
  const timer = limit && setTimeout(() => controller.abort(limit.reason()), limit.ms);
  return {
    signal: controller.signal,
    release: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    },
  };
}
