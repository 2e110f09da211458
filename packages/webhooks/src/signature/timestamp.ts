import { WebhookVerificationError } from '../errors';

const DIGITS = /^[0-9]+$/;

/**
 * Parses the timestamp header: ASCII digits only (no sign, space, dot or exponent),
 * a Unix time in milliseconds that fits in a safe integer.
 */
export function parseTimestamp(value: string, headerName: string): number {
  const timestamp = DIGITS.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(timestamp)) {
    throw new WebhookVerificationError(
      'malformed_timestamp',
      `${headerName} is not Unix ms in ASCII digits (${describeValue(value)})`,
    );
  }
  return timestamp;
}

/**
 * Rejects a timestamp more than `toleranceMs` away from `now`, in either direction.
 * The bound is inclusive: exactly `toleranceMs` away is still accepted.
 */
export function assertFreshTimestamp(timestamp: number, now: number, toleranceMs: number): void {
  const skew = now - timestamp;
  // Written so that a NaN clock reading rejects rather than accepts.
  const old = !(skew <= toleranceMs);
  if (old || -skew > toleranceMs) {
    throw new WebhookVerificationError(
      old ? 'timestamp_too_old' : 'timestamp_in_future',
      `Timestamp ${old ? `${skew} ms old` : `${-skew} ms ahead`}, over the ${toleranceMs} ms tolerance (${
        looksLikeSeconds(timestamp) ? 'seconds? Send ms' : 'replay or clock skew'
      })`,
    );
  }
}

/**
 * Describes a rejected header value by its length only: echoing it could put a secret in
 * logs if someone sends the secret itself as a header.
 */
export function describeValue(value: string): string {
  return `got ${value.length} characters`;
}

/**
 * Tells whether a timestamp is plainly Unix seconds (what Stripe and Svix send): as ms it
 * would fall in 1970-01-12 .. 1973-03-03, as seconds in 2001 .. 5138.
 */
export function looksLikeSeconds(timestamp: number): boolean {
  return timestamp >= 1e9 && timestamp < 1e11;
}

/**
 * Formats and checks the timestamp to sign: a non-negative safe integer of milliseconds,
 * not one that is plainly in seconds.
 */
export function formatTimestamp(timestamp: number): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0 || looksLikeSeconds(timestamp)) {
    throw new WebhookVerificationError(
      'malformed_timestamp',
      `timestamp must be a non-negative integer of Unix ms (Date.now(), not seconds); got ${timestamp}.`,
    );
  }
  return String(timestamp);
}
