/** A seeded pseudo-random generator: the same seed always gives the same sequence. */
export interface Prng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** A string of `length` lowercase hex digits. */
  hex(length: number): string;
}

/**
 * Creates a mulberry32 generator: tiny, fast and plenty for fixtures and fault dice.
 * Not for anything secret (cursor keys and request ids use Web Crypto).
 */
export function createPrng(seed: number): Prng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: (items) => items[int(0, items.length - 1)] as (typeof items)[number],
    hex: (length) => {
      let out = '';
      while (out.length < length) out += int(0, 15).toString(16);
      return out;
    },
  };
}
