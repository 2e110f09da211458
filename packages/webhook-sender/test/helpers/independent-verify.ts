import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A verifier written from the signing rule alone (docs/webhooks-reference.md, "The delivery"), with plain node:crypto, so deliveries are
 * checked by something other than `@cspwatch/webhooks`. Returns the reason it refuses, or 'ok'.
 */
export function verifyIndependently(
  rawBody: string,
  headers: Record<string, string | undefined>,
  secret: string,
  now = Date.now(),
): 'ok' | 'missing_header' | 'stale' | 'mismatch' {
  // Step 1: the timestamp header and the raw body text, before any JSON parsing.
  const timestamp = headers['x-cspwatch-timestamp'];
  const signature = headers['x-cspwatch-signature'];
  if (timestamp === undefined || signature === undefined) return 'missing_header';
  // Step 4: reject when |now - timestamp| exceeds 5 minutes.
  if (!/^\d+$/.test(timestamp) || Math.abs(now - Number(timestamp)) > 300_000) return 'stale';
  // Step 2: HMAC-SHA256 over `<timestamp>.<body>` with the secret, hex, prefixed `sha256=`.
  const expected = `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(Buffer.from(`${timestamp}.${rawBody}`, 'utf8'))
    .digest('hex')}`;
  // Step 3: compare in constant time, lengths first.
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(signature, 'utf8');
  if (a.length !== b.length) return 'mismatch';
  return timingSafeEqual(a, b) ? 'ok' : 'mismatch';
}
