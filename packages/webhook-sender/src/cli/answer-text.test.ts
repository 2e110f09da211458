import { describe, expect, it } from 'vitest';
import { cutAnswer } from './answer-text';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('cutAnswer', () => {
  it('keeps an answer within the cap whole', () => {
    expect(cutAnswer('{"code":"signature_mismatch"}', 29)).toEqual({
      text: '{"code":"signature_mismatch"}',
      omittedBytes: 0,
    });
  });

  it('cuts JSON between tokens, never inside a string', () => {
    const answer = '{"type":"urn:x","code":"signature_mismatch","status":400}';
    // The cap falls inside "signature_mismatch": the cut goes back to before it.
    expect(cutAnswer(answer, 30)).toEqual({ text: '{"type":"urn:x","code":', omittedBytes: 34 });
  });

  it('keeps a token that ends exactly at the cap when a delimiter follows', () => {
    expect(cutAnswer('{"status":400,"x":1}', 13).text).toBe('{"status":400');
    expect(cutAnswer('{"status":4000}', 13).text).toBe('{"status":');
  });

  it('does not take an escaped quote for the end of a string', () => {
    expect(cutAnswer('{"a":"x\\", y","b":2}', 12).text).toBe('{"a":');
  });

  it('cuts text at white space, and a single long word at a code point boundary', () => {
    expect(cutAnswer('refused: bad signature here', 16)).toEqual({
      text: 'refused: bad',
      omittedBytes: 15,
    });
    const word = 'é'.repeat(10); // 20 bytes, no white space
    const cut = cutAnswer(word, 7);
    expect(cut.text).toBe('ééé');
    expect(cut.omittedBytes).toBe(14);
  });

  it('never splits a UTF-8 sequence or a surrogate pair, whatever the cap', () => {
    const text = `["${'😀é✓a '.repeat(40)}", 1, {"k": "ü"}]`;
    for (let cap = 1; cap < bytes(text); cap += 1) {
      const { text: shown, omittedBytes } = cutAnswer(text, cap);
      expect(bytes(shown)).toBeLessThanOrEqual(cap);
      expect(text.startsWith(shown)).toBe(true);
      expect(shown).not.toMatch(/[\ud800-\udbff]$/);
      expect(bytes(shown) + omittedBytes).toBe(bytes(text));
    }
  });
});
