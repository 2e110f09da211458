import { WebhookVerificationError } from './errors';

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
  if (!(skew <= toleranceMs)) {
    throw new WebhookVerificationError(
      'timestamp_too_old',
      `Timestamp ${skew} ms old, over the ${toleranceMs} ms tolerance (replay, or clock skew)`,
    );
  }
  if (-skew > toleranceMs) {
    throw new WebhookVerificationError(
      'timestamp_in_future',
      `Timestamp ${-skew} ms ahead, over the ${toleranceMs} ms tolerance (clock skew)`,
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

/** Formats and checks the timestamp to sign: a non-negative safe integer of milliseconds. */
export function formatTimestamp(timestamp: number): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new WebhookVerificationError(
      'malformed_timestamp',
      `timestamp must be a non-negative integer of Unix ms; got ${timestamp}.`,
    );
  }
  return String(timestamp);
}
