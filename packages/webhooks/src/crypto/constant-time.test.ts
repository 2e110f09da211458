import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { constantTimeEqualHex } from './constant-time';

describe('constantTimeEqualHex', () => {
  const digestHex = Array.from({ length: 32 }, (_, index) =>
    ((index * 37 + 11) & 0xff).toString(16).padStart(2, '0'),
  ).join('');
  const header = `sha256=${digestHex}`;

  it('is true for the header of the same digest', () => {
    expect(constantTimeEqualHex(header, digestHex)).toBe(true);
  });

  it('is false when exactly one hex digit differs, at every position', () => {
    for (let position = 0; position < digestHex.length; position++) {
      const digit = digestHex[position] === 'a' ? 'b' : 'a';
      const changed = digestHex.slice(0, position) + digit + digestHex.slice(position + 1);
      expect(constantTimeEqualHex(header, changed)).toBe(false);
      expect(constantTimeEqualHex(`sha256=${changed}`, digestHex)).toBe(false);
    }
  });

  it('is false when the lengths do not line up with the prefix', () => {
    expect(constantTimeEqualHex(header.slice(0, -1), digestHex)).toBe(false);
    expect(constantTimeEqualHex(header, digestHex.slice(0, -1))).toBe(false);
    expect(constantTimeEqualHex(digestHex, digestHex)).toBe(false);
    expect(constantTimeEqualHex('', '')).toBe(false);
  });

  it('agrees with plain equality on arbitrary hex digests', () => {
    const hex64 = fc
      .array(fc.constantFrom(...'0123456789abcdef'), { minLength: 64, maxLength: 64 })
      .map((digits) => digits.join(''));
    fc.assert(
      fc.property(hex64, hex64, (a, b) => {
        expect(constantTimeEqualHex(`sha256=${a}`, b)).toBe(a === b);
      }),
      { numRuns: 300 },
    );
  });
});
