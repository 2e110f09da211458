import { redactUrls } from '@cspwatch/contract';

/*
 * Keeping secrets out of what the client hands back: the bearer token, which a server may echo
 * in a body or a header, and the userinfo and query values of URLs a server sends (the rule of
 * every package, `redactUrls`, lives in the contract). Errors carry both. Each text is redacted
 * once, where it is read from the response: `[redacted]` itself is never redacted again.
 */

/** A character that a token glued to it would be part of a longer word with. */
const WORD = /\w/;
/** An escape ending right before a match separates it, as a space would: `\n`, `\u0020`, `%20`. */
const ESCAPE_BEFORE = /(\\[bfnrt]|\\u[\dA-Fa-f]{4}|%[\dA-Fa-f]{2})$/;

/**
 * Replaces every echo of the token in `text` with `[redacted]`: the token as is and in its
 * JSON-escaped forms (`"` and `\` escaped, `/` also written `\/`), wherever it stands alone.
 * It stands alone when, on each side where the token begins or ends with a letter, digit or
 * `_`, the text does not go on with one (an escape such as `\n` before it counts as a
 * separator). So a short token cannot rewrite other text (with the token `t`,
 * `validation_failed` stays whole), while a real token, long and random, never occurs inside
 * a word by chance. Internal.
 */
export function redact(text: string, token: string): string {
  if (!token) return text;
  const escaped = JSON.stringify(token).slice(1, -1);
  // Longest form first, so an escaped echo is not cut short by the bare token.
  for (const form of new Set([escaped.replaceAll('/', '\\/'), escaped, token])) {
    let result = '';
    let done = 0;
    for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1)) {
      const end = at + form.length;
      const joinsBefore =
        WORD.test(form[0] as string) &&
        WORD.test(text[at - 1] ?? '') &&
        !ESCAPE_BEFORE.test(text.slice(Math.max(0, at - 6), at));
      const joinsAfter = WORD.test(text[end - 1] as string) && WORD.test(text[end] ?? '');
      const escapeLetter = WORD.test(form[0] as string) && isEscaped(text, at);
      if (at < done || joinsBefore || joinsAfter || escapeLetter) continue;
      result += `${text.slice(done, at)}[redacted]`;
      done = end;
    }
    text = result + text.slice(done);
  }
  return text;
}

/** Whether the character at `at` is the letter of an escape (`\n`): an odd run of backslashes before it. */
function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text[at - 1 - backslashes] === '\\') backslashes += 1;
  return backslashes % 2 === 1;
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
