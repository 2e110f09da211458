import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { constantTimeEqual, constantTimeEqualHex } from './constant-time';

describe('constantTimeEqual', () => {
  const digest = Uint8Array.from({ length: 32 }, (_, index) => (index * 37 + 11) & 0xff);

  it('is true for equal bytes, including two empty arrays', () => {
    expect(constantTimeEqual(digest, digest.slice())).toBe(true);
    expect(constantTimeEqual(new Uint8Array(0), new Uint8Array(0))).toBe(true);
  });

  it('is false when the lengths differ, whatever the prefix', () => {
    expect(constantTimeEqual(digest, digest.subarray(0, 31))).toBe(false);
    expect(constantTimeEqual(digest.subarray(0, 31), digest)).toBe(false);
    expect(constantTimeEqual(new Uint8Array(0), digest)).toBe(false);
    expect(constantTimeEqual(digest, new Uint8Array(0))).toBe(false);
    const longer = new Uint8Array(33);
    longer.set(digest);
    expect(constantTimeEqual(digest, longer)).toBe(false);
  });

  it('is false when exactly one byte differs, at every position and every bit', () => {
    for (let position = 0; position < digest.length; position++) {
      for (let bit = 0; bit < 8; bit++) {
        const changed = digest.slice();
        changed[position]! ^= 1 << bit;
        expect(constantTimeEqual(digest, changed)).toBe(false);
        expect(constantTimeEqual(changed, digest)).toBe(false);
      }
    }
  });

  it('does not mistake differences that cancel out in a sum for equality', () => {
    // +1 in one byte and -1 in another keeps the byte sum: an XOR-OR accumulator still sees it.
    const changed = digest.slice();
    changed[0] = digest[0]! + 1;
    changed[1] = digest[1]! - 1;
    expect(constantTimeEqual(digest, changed)).toBe(false);
  });

  it('agrees with a plain comparison for arbitrary byte arrays', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }), (a, b) => {
        const expected = a.length === b.length && a.every((byte, index) => byte === b[index]);
        expect(constantTimeEqual(a, b)).toBe(expected);
        expect(constantTimeEqual(a, a.slice())).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

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
