/**
 * How a delivery is signed: correctly, or broken on purpose so a receiver's refusals can be
 * tested (`cspwatch-webhook send --tamper | --stale | --unsigned`).
 */
import { signWebhookSync } from '@cspwatch/webhooks/node';

/**
 * `signed`: a real delivery. `tampered`: signed, then the body changed (one trailing space:
 * still the same JSON, no longer the signed bytes). `stale`: signed with a timestamp an hour
 * old, outside any sane tolerance. `unsigned`: no timestamp or signature header at all.
 */
export type SigningVariant = 'signed' | 'tampered' | 'stale' | 'unsigned';

/** How old the timestamp of a `stale` delivery is: far outside the 5-minute default window. */
export const STALE_AGE_MS = 60 * 60_000;

/** The headers and body of one delivery, signed as the variant says. */
export interface SignedRequest {
  readonly headers: Record<string, string>;
  readonly body: Uint8Array;
}

/** Signs `body` with `secret` at `now`, then breaks the result as `variant` asks. */
export function signRequest(
  body: Uint8Array,
  secret: string,
  now: number,
  variant: SigningVariant = 'signed',
): SignedRequest {
  if (variant === 'unsigned') return { headers: { 'content-type': 'application/json' }, body };
  const timestamp = variant === 'stale' ? now - STALE_AGE_MS : now;
  const headers = signWebhookSync({ body, secret, timestamp });
  if (variant !== 'tampered') return { headers, body };
  const tampered = new Uint8Array(body.byteLength + 1);
  tampered.set(body);
  tampered[body.byteLength] = 0x20;
  return { headers, body: tampered };
}
