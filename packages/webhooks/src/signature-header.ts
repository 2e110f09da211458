import { SIGNATURE_PREFIX } from './constants';
import { WebhookVerificationError } from './errors';
import { describeValue } from './timestamp';

/** Bytes of an HMAC-SHA256 digest. */
export const DIGEST_BYTES = 32;
const HEADER_LENGTH = SIGNATURE_PREFIX.length + DIGEST_BYTES * 2;
const HEX_DIGITS = '0123456789abcdef';

/**
 * Decodes the signature header, exactly `sha256=` + 64 lowercase hex characters, into
 * `bytes` (the caller's {@link DIGEST_BYTES}-byte buffer, so the Node path can pass an
 * off-heap `Buffer`), so the comparison works on bytes rather than on strings.
 */
export function parseSignatureHeader<T extends Uint8Array>(
  value: string,
  headerName: string,
  bytes: T,
): T {
  if (value.length !== HEADER_LENGTH || !value.startsWith(SIGNATURE_PREFIX)) {
    throw malformed(value, headerName);
  }
  for (let index = 0; index < DIGEST_BYTES; index++) {
    const offset = SIGNATURE_PREFIX.length + index * 2;
    const high = hexValue(value.charCodeAt(offset));
    const low = hexValue(value.charCodeAt(offset + 1));
    if (high < 0 || low < 0) throw malformed(value, headerName);
    bytes[index] = (high << 4) | low;
  }
  return bytes;
}

/**
 * Checks the signature header is exactly `sha256=` + 64 lowercase hex characters without
 * decoding it, for a backend that compares hex digests (node:crypto) rather than bytes.
 */
export function checkSignatureHeader(value: string, headerName: string): string {
  if (value.length !== HEADER_LENGTH || !value.startsWith(SIGNATURE_PREFIX)) {
    throw malformed(value, headerName);
  }
  for (let index = SIGNATURE_PREFIX.length; index < HEADER_LENGTH; index++) {
    if (hexValue(value.charCodeAt(index)) < 0) throw malformed(value, headerName);
  }
  return value;
}

/** Value of one lowercase hex digit, or -1 for anything else (uppercase included). */
function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  if (code >= 97 && code <= 102) return code - 87; // a-f
  return -1;
}

function malformed(value: string, headerName: string): WebhookVerificationError {
  return new WebhookVerificationError(
    'malformed_signature',
    `${headerName} is not sha256= + 64 lowercase hex (${describeValue(value)})`,
  );
}

/** Formats digest bytes as the signature header value: `sha256=` + lowercase hex. */
export function formatSignatureHeader(digest: Uint8Array): string {
  let hex = SIGNATURE_PREFIX;
  for (const byte of digest) hex += HEX_DIGITS[byte >> 4]! + HEX_DIGITS[byte & 15]!;
  return hex;
}
