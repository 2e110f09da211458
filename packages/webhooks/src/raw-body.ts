import { WebhookVerificationError } from './errors';

/**
 * A request body exactly as received: its text, or its bytes as a `Uint8Array` (a Node
 * `Buffer` is one), an `ArrayBuffer` (`await request.arrayBuffer()`) or a `DataView`.
 */
export type RawBody = string | ArrayBuffer | ArrayBufferView;

// A lone surrogate (no pair) is the only code point the u flag reports as Cs.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Accepts a raw body and gives it as text or bytes. Refuses a body that a framework already
 * parsed into an object, and text holding a lone surrogate (no byte sequence has that text).
 */
export function toRawBody(body: unknown): string | Uint8Array {
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string') {
    if (!LONE_SURROGATE.test(body)) return body;
    throw new WebhookVerificationError(
      'body_not_well_formed',
      'The body text has a lone surrogate: pass the raw bytes',
    );
  }
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body))
    return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  throw new WebhookVerificationError(
    'body_not_raw',
    // Named by its kind only: the value could be anything, a secret included.
    // The adapters say how to keep the raw body in each framework.
    `Pass the raw body (text or bytes), not ${typeof body === 'object' && body !== null ? 'a parsed object' : typeof body}: the signature covers the exact bytes`,
  );
}
