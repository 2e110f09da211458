import { SIGNATURE_PREFIX } from '../constants';
import { WebhookVerificationError } from '../errors';
import { describeValue } from './timestamp';

/** Bytes of an HMAC-SHA256 digest. */
const DIGEST_BYTES = 32;
const SIGNATURE_VALUE = /^sha256=[0-9a-f]{64}$/;
const HEX_DIGITS = '0123456789abcdef';

/**
 * Decodes the signature header, exactly `sha256=` + 64 lowercase hex characters, into the
 * {@link DIGEST_BYTES} digest bytes, so the comparison works on bytes rather than on strings.
 */
export function parseSignatureHeader(value: string, headerName: string): Uint8Array<ArrayBuffer> {
  const hex = checkSignatureHeader(value, headerName);
  const bytes = new Uint8Array(DIGEST_BYTES);
  for (let index = 0; index < DIGEST_BYTES; index++) {
    const at = SIGNATURE_PREFIX.length + 2 * index;
    bytes[index] = Number.parseInt(hex.slice(at, at + 2), 16);
  }
  return bytes;
}

/**
 * Checks the signature header is exactly `sha256=` + 64 lowercase hex characters without
 * decoding it, for a backend that compares hex digests (node:crypto) rather than bytes.
 */
export function checkSignatureHeader(value: string, headerName: string): string {
  if (SIGNATURE_VALUE.test(value)) return value;
  throw new WebhookVerificationError(
    'malformed_signature',
    `${headerName} is not sha256= + 64 lowercase hex (${/[A-F]/.test(value) ? 'uppercase hex' : describeValue(value)})`,
  );
}

/** Formats digest bytes as the signature header value: `sha256=` + lowercase hex. */
export function formatSignatureHeader(digest: Uint8Array): string {
  let hex = SIGNATURE_PREFIX;
  for (const byte of digest) hex += HEX_DIGITS[byte >> 4]! + HEX_DIGITS[byte & 15]!;
  return hex;
}
