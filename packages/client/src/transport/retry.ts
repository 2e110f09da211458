import { CspwatchApiError } from '../errors/api-error';
import { CspwatchConnectionError } from '../errors/connection-error';
import type { CspwatchError } from '../errors/cspwatch-error';
import { CspwatchTimeoutError } from '../errors/timeout-error';
import { CspwatchTokenError } from '../errors/token-error';

/*
 * The retry policy: which failures may be repeated, and how long to wait. ky runs the loop
 * and the wait (transport.ts); these rules decide, in its `shouldRetry`.
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
 * Whether a failed attempt may be repeated. A POST is repeated only when the server cannot
 * have acted on it: a 429, a connection never made, or a token function that threw.
 */
export function isRetryable(error: CspwatchError, idempotent: boolean): boolean {
  if (error instanceof CspwatchApiError) return isRetryableStatus(error.status, idempotent);
  if (error instanceof CspwatchConnectionError) {
    return idempotent || !error.requestMayHaveBeenSent;
  }
  if (error instanceof CspwatchTimeoutError) return idempotent && error.scope === 'attempt';
  // A throwing provider sent nothing; a bad return value is a bug that a retry will not fix.
  if (error instanceof CspwatchTokenError) return error.cause !== undefined;
  return false;
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
