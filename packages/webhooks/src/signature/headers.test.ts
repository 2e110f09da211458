import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readHeader } from './headers';

describe('readHeader', () => {
  it('reads a Fetch Headers object case-insensitively', () => {
    const headers = new Headers({ 'X-Cspwatch-Timestamp': '123' });
    expect(readHeader(headers, 'x-cspwatch-timestamp')).toBe('123');
    expect(readHeader(headers, 'x-other')).toBeUndefined();
  });

  it('reads Node IncomingHttpHeaders, including string[] values', () => {
    const headers = { 'x-cspwatch-timestamp': '123', 'x-list': ['a'], 'x-two': ['a', 'b'] };
    expect(readHeader(headers, 'x-cspwatch-timestamp')).toBe('123');
    expect(readHeader(headers, 'x-list')).toBe('a');
    // Several values are a duplicate: the Fetch separator alone, never a valid value.
    expect(readHeader(headers, 'x-two')).toBe(', ');
  });

  it('finds mixed-case keys of plain objects', () => {
    expect(readHeader({ 'X-CspWatch-Signature': 'sig' }, 'x-cspwatch-signature')).toBe('sig');
  });

  it('finds every spelling of the name, the exact one included', () => {
    const name = 'x-cspwatch-signature';
    expect(readHeader({ [name]: 'a', 'X-Cspwatch-Signature': 'b' }, name)).toBe(', ');
    expect(readHeader({ 'X-Cspwatch-Signature': 'b', [name]: 'a' }, name)).toBe(', ');
    // A non-text duplicate is never converted to text (its toString may throw).
    const hostile = { toString: 0 };
    expect(readHeader({ [name]: hostile, 'X-CSPWATCH-SIGNATURE': 0 }, name)).toBe(', ');
    expect(readHeader({ [name]: ['a', hostile] }, name)).toBe(', ');
    // Same length, other name: never a match.
    expect(readHeader({ 'x-cspwatch-timestamp': '1' }, name)).toBeUndefined();
  });

  it('treats absent, empty and non-text values as missing', () => {
    expect(readHeader({}, 'x')).toBeUndefined();
    expect(readHeader({ x: '' }, 'x')).toBeUndefined();
    expect(readHeader({ x: [] }, 'x')).toBeUndefined();
    expect(readHeader({ x: [''] }, 'x')).toBeUndefined();
    expect(readHeader({ x: 42 }, 'x')).toBeUndefined();
    expect(readHeader({ x: { toString: () => 'sig' } }, 'x')).toBeUndefined();
    expect(readHeader(null, 'x')).toBeUndefined();
    expect(readHeader('x: y', 'x')).toBeUndefined();
  });

  it('does not read inherited properties such as constructor', () => {
    expect(readHeader({}, 'constructor')).toBeUndefined();
    expect(readHeader({}, '__proto__')).toBeUndefined();
  });

  it('survives a get() that throws (an invalid name for Headers)', () => {
    const throwing = {
      get() {
        throw new TypeError('invalid header name');
      },
    };
    expect(readHeader(throwing, 'x')).toBeUndefined();
    expect(readHeader(new Headers(), 'not a valid name')).toBeUndefined();
  });

  it('never throws for arbitrary values', () => {
    fc.assert(
      fc.property(fc.anything(), fc.string(), (headers, name) => {
        const value = readHeader(headers, name);
        expect(value === undefined || typeof value === 'string').toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
