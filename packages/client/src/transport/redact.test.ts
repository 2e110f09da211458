import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redact } from './redact';

/** Characters a bearer token may hold (printable ASCII, as the client's options allow). */
const tokenChar = fc.mapToConstant({
  num: 0x7e - 0x21 + 1,
  build: (v) => String.fromCharCode(0x21 + v),
});
const anyToken = fc.string({ unit: tokenChar, minLength: 1, maxLength: 40 });
/** Mostly the letters and punctuation of server texts, so that short tokens do occur in them. */
const serverText = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz_0123456789 .,:;"\'/\\-{}[]'),
    fc.string({ minLength: 1, maxLength: 1 }),
  ),
  maxLength: 80,
});

const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
/** The forms a server echoes a token in: as is and JSON-escaped. */
const formsOf = (token: string) => {
  const escaped = JSON.stringify(token).slice(1, -1);
  return [token, escaped, escaped.replaceAll('/', '\\/')];
};
/**
 * Whether `text` holds `token` (in one of its forms) standing alone: not glued to a letter,
 * digit or `_` on a side where the token itself begins or ends with one.
 */
function holdsToken(text: string, token: string): boolean {
  return formsOf(token).some((form) => {
    // Not glued to a word, and not the letter of an escape (an odd run of backslashes).
    const before = /^\w/.test(form) ? '(?<!\\w)(?<!(?:^|[^\\\\])(?:\\\\\\\\)*\\\\)' : '';
    const after = /\w$/.test(form) ? '(?!\\w)' : '';
    return new RegExp(`${before}${escapeRegExp(form)}${after}`).test(text);
  });
}
/** Whether a redacted text still shows the token: each piece between markers is read alone. */
const showsToken = (text: string, token: string) =>
  text.split('[redacted]').some((piece) => holdsToken(piece, token));
/** Separators a server puts around an echoed token: spaces, quotes, JSON and URL escapes. */
const separator = fc.constantFrom(' ', '"', ':', '=', '\n', '\\n', '\\u0020', '%20', ', ', '/');

// Generous: a property run only has to finish; on a busy machine it may take a while.
describe('redact', { timeout: 120_000 }, () => {
  it('replaces the token and its JSON-escaped forms where they stand alone', () => {
    const token = 'tok_"a\\b/c';
    expect(redact(`Bearer ${token}`, token)).toBe('Bearer [redacted]');
    expect(redact(JSON.stringify({ echo: token }), token)).toBe('{"echo":"[redacted]"}');
    expect(redact('{"echo":"tok_\\"a\\\\b\\/c"}', token)).toBe('{"echo":"[redacted]"}');
    expect(redact('a\\ntok_"a\\b/c.', token)).toBe('a\\n[redacted].');
    expect(redact('Bearer%20tok_"a\\b/c', token)).toBe('Bearer%20[redacted]');
  });

  it('leaves a short token inside other words alone, and redacts it once', () => {
    expect(redact('validation_failed', 't')).toBe('validation_failed');
    expect(redact('token t is not valid', 't')).toBe('token [redacted] is not valid');
    expect(redact('redacted', 'redacted')).toBe('[redacted]');
    expect(redact(redact('x t y', 't'), 't')).toBe('x [redacted] y');
    expect(redact('text', '')).toBe('text');
  });

  it('never alters a text in which the token does not stand alone (property)', () => {
    fc.assert(
      fc.property(anyToken, serverText, (token, text) => {
        fc.pre(
          !holdsToken(text, token) && !formsOf(token).some((form) => hasEscapedEcho(text, form)),
        );
        expect(redact(text, token)).toBe(text);
      }),
      { numRuns: 1_000 },
    );
  });

  it('leaves no echo of the token, of any length, in any text (property)', () => {
    const echoed = fc
      .tuple(anyToken, serverText, separator, separator, serverText, fc.nat(2))
      .map(([token, head, open, close, tail, form]) => ({
        token,
        text: `${head}${open}${formsOf(token)[form]}${close}${tail}`,
      }));
    fc.assert(
      fc.property(
        fc.oneof(echoed, fc.record({ token: anyToken, text: serverText })),
        ({ token, text }) => {
          expect(showsToken(redact(text, token), token)).toBe(false);
        },
      ),
      { numRuns: 1_000 },
    );
  });
});

/** Whether `form` follows a JSON or URL escape in `text` (which `redact` counts as a separator). */
function hasEscapedEcho(text: string, form: string): boolean {
  return new RegExp(
    `(?:\\\\[bfnrt]|\\\\u[0-9A-Fa-f]{4}|%[0-9A-Fa-f]{2})${escapeRegExp(form)}`,
  ).test(text);
}
