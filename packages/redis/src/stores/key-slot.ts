/**
 * Redis Cluster's key hashing, as `CLUSTER KEYSLOT` computes it, to know which slot (so which
 * master) a key lives in without asking.
 */

/** Redis Cluster's slot count. */
export const SLOTS = 16_384;

/** CRC16-CCITT (XMODEM), the checksum Redis Cluster hashes keys with. */
function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

const encoder = new TextEncoder();

/**
 * The cluster slot of a key, as `CLUSTER KEYSLOT` computes it: the CRC16 of the key, or of its
 * hash tag (the part between the first `{` and the next `}`, when that part is not empty).
 */
export function keySlot(key: string): number {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  const hashed = close > open + 1 ? key.slice(open + 1, close) : key;
  return crc16(encoder.encode(hashed)) % SLOTS;
}
