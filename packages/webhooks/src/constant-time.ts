import { SIGNATURE_PREFIX } from './constants';

/**
 * Compares two byte arrays in time that depends only on their lengths, never on where
 * they differ: lengths first, then an XOR accumulated over every byte with no early exit.
 * Used on the Web path; the Node path compares hex with {@link constantTimeEqualHex}.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) {
    difference |= a[index]! ^ b[index]!;
  }
  return difference === 0;
}

/**
 * Compares a checked signature header (`sha256=` + 64 lowercase hex) with a 64-character
 * lowercase hex digest in time that never depends on where they differ: every digit is
 * XOR-accumulated, with no early exit. Used on the Node path.
 */
export function constantTimeEqualHex(signatureHeader: string, digestHex: string): boolean {
  const offset = signatureHeader.length - digestHex.length;
  if (offset !== SIGNATURE_PREFIX.length) return false;
  let difference = 0;
  for (let index = 0; index < digestHex.length; index++) {
    difference |= signatureHeader.charCodeAt(offset + index) ^ digestHex.charCodeAt(index);
  }
  return difference === 0;
}
