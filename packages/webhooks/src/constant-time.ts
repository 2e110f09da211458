/**
 * Compares two byte arrays in time that depends only on their lengths, never on where
 * they differ: lengths first, then an XOR accumulated over every byte with no early exit.
 * Used on the Web path; the Node path uses `crypto.timingSafeEqual`.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) {
    difference |= a[index]! ^ b[index]!;
  }
  return difference === 0;
}
