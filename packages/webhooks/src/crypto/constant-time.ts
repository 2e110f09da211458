import { SIGNATURE_PREFIX } from '../constants';

/**
 * Compares a checked signature header (`sha256=` + 64 lowercase hex) with a 64-character
 * lowercase hex digest in time that never depends on where they differ: every digit is
 * XOR-accumulated, with no early exit. Used on the Node path (the Web
 * path has `crypto.subtle.verify` compare).
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
