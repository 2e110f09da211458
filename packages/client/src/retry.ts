/*
 * Retry policy helpers: which failures are retried, how long to wait, and an abortable wait.
 * The loop that uses them lives in request.ts.
 */

/** Statuses worth retrying for a request that is safe to repeat (GET). */
const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** Whether a response status may be retried, given whether the request is idempotent. */
export function isRetryableStatus(status: number, idempotent: boolean): boolean {
  // A non-idempotent request (create website) reached the server on any status except 429,
  // which is an explicit "not processed, come back later".
  return idempotent ? RETRYABLE_STATUSES.has(status) : status === 429;
}

/**
 * Parses a `Retry-After` header (delay-seconds or an HTTP date) into milliseconds from `now`.
 * Returns `undefined` when the header is absent or unreadable; a past date gives 0.
 */
export function parseRetryAfter(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+(?:\.\d+)?$/.test(value)) {
    return Math.min(Math.ceil(Number(value) * 1000), Number.MAX_SAFE_INTEGER);
  }
  // HTTP dates always name a weekday or month; this also rules out bare numbers like "-1".
  if (!/[a-z]/i.test(value)) return undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Exponential backoff with full jitter: a random wait in [0, min(maxDelay, base * 2^retry)).
 *
 * @param retry - 0 for the first retry.
 * @param random - a source of numbers in [0, 1).
 */
export function backoffDelay(
  retry: number,
  random: () => number,
  baseDelay: number,
  maxDelay: number,
): number {
  const ceiling = Math.min(maxDelay, baseDelay * 2 ** retry);
  const value = random();
  // A broken random source (NaN, out of range) must not give a NaN or negative wait.
  const fraction = Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0;
  return Math.floor(fraction * ceiling);
}

/** Waits `ms` milliseconds; rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
