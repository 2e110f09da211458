/*
 * A per-attempt signal that follows the caller's. The caller's signal may live for the whole
 * process (a shutdown signal, say); handing it to ky would make ky call
 * `AbortSignal.any([callerSignal, …])` on every request, and Node 20 keeps a reference to
 * each combined signal on the source signal. Following it with one listener that is removed
 * when the attempt ends leaves nothing behind on the caller's signal.
 */

/** A signal for one attempt, and the function that detaches it from the caller's. Internal. */
export interface LinkedSignal {
  /** Aborts, with the same reason, when the caller's signal aborts. */
  signal: AbortSignal | undefined;
  /** Stops following the caller's signal; call it once the attempt is over. */
  release(): void;
}

const nothing = () => {};

/** Creates a per-attempt signal following `signal` (none when the caller gave none). Internal. */
export function linkSignal(signal: AbortSignal | undefined): LinkedSignal {
  if (signal === undefined) return { signal: undefined, release: nothing };
  const controller = new AbortController();
  if (signal.aborted) {
    controller.abort(signal.reason);
    return { signal: controller.signal, release: nothing };
  }
  const forward = () => controller.abort(signal.reason);
  signal.addEventListener('abort', forward, { once: true });
  return {
    signal: controller.signal,
    release: () => signal.removeEventListener('abort', forward),
  };
}
