import { redactUrls } from '@cspwatch/contract';

/*
 * Keeping secrets out of what the client hands back: the bearer token, which a server may echo
 * in a body or a header, and the userinfo and query values of URLs a server sends (the rule of
 * every package, `redactUrls`, lives in the contract). Errors carry both. Each text is redacted
 * once, where it is read from the response: `[redacted]` itself is never redacted again.
 */

const REDACTED = '[redacted]';
/** A character that a token glued to it would be part of a longer word with. */
const WORD = /[A-Za-z0-9_]/;
/** An escape ending right before a match separates it, as a space would: `\n`, `\u0020`, `%20`. */
const ESCAPE_BEFORE = /(?:\\[bfnrt]|\\u[0-9A-Fa-f]{4}|%[0-9A-Fa-f]{2})$/;

const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/**
 * Whether the match `text[start, end)` is an echo of the token rather than part of a longer
 * word: on each side where the token begins or ends with a letter, digit or `_`, the text
 * must not go on with one (an escape such as `\n` before it counts as a separator).
 */
function standsAlone(text: string, start: number, end: number): boolean {
  const joinsBefore =
    WORD.test(text[start] as string) &&
    start > 0 &&
    WORD.test(text[start - 1] as string) &&
    !ESCAPE_BEFORE.test(text.slice(Math.max(0, start - 6), start));
  const joinsAfter =
    WORD.test(text[end - 1] as string) && end < text.length && WORD.test(text[end] as string);
  return !joinsBefore && !joinsAfter;
}

let last: { token: string; pattern: RegExp } | undefined;

/** The token as is and in its JSON-escaped forms, longest first; kept for the last token. */
function echoPattern(token: string): RegExp {
  if (last?.token !== token) {
    const jsonEscaped = JSON.stringify(token).slice(1, -1);
    const forms = [...new Set([token, jsonEscaped, jsonEscaped.replaceAll('/', '\\/')])];
    // Longest first, so an escaped form is not cut short by a shorter one at the same place.
    forms.sort((a, b) => b.length - a.length);
    last = { token, pattern: new RegExp(forms.map(escapeRegExp).join('|'), 'g') };
  }
  return last.pattern;
}

/**
 * Replaces every echo of the token in `text` with `[redacted]`: the token as is and in its
 * JSON-escaped forms (`"` and `\` escaped, `/` also written `\/`), wherever it stands alone.
 * An occurrence inside a longer word is left alone, so a short token cannot rewrite other
 * text (with the token `t`, `validation_failed` stays whole), while a real token, which is
 * long and random, never occurs inside a word by chance. Internal.
 */
export function redact(text: string, token: string): string {
  if (!token) return text;
  const pattern = echoPattern(token);
  pattern.lastIndex = 0;
  let result = '';
  let done = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const end = match.index + match[0].length;
    if (standsAlone(text, match.index, end)) {
      result += text.slice(done, match.index) + REDACTED;
      done = end;
    } else {
      pattern.lastIndex = match.index + 1;
    }
  }
  return result + text.slice(done);
}

/**
 * Server text an error or a log line shows (a problem's `title`, `detail`, field messages, a
 * status text): the token and the secrets of URLs redacted. Internal.
 */
export function redactText(text: string, token: string): string {
  return redactUrls(redact(text, token));
}

/** Headers whose value is a URL, shown without its userinfo and query values. */
const URL_HEADERS = new Set(['location', 'content-location']);

/** A copy of response headers: the token redacted from every value, URL headers too. Internal. */
export function redactHeaders(headers: Headers, token: string): Headers {
  const copy = new Headers();
  for (const [name, value] of headers) {
    copy.append(name, URL_HEADERS.has(name) ? redactText(value, token) : redact(value, token));
  }
  return copy;
}
