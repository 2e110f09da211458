import { redactUrls } from '@cspwatch/contract';

/*
 * Keeping secrets out of what the client hands back: the bearer token, which a server may echo
 * in a body or a header, and the userinfo and query values of URLs a server sends (the rule of
 * every package, `redactUrls`, lives in the contract). Errors carry both.
 */

/**
 * Replaces every occurrence of the token, in case a server echoes it back: as is and in
 * its JSON-escaped forms (`"` and `\` escaped, `/` also written `\/`). Internal.
 */
export function redact(text: string, token: string): string {
  if (!token) return text;
  const jsonEscaped = JSON.stringify(token).slice(1, -1);
  const forms = new Set([token, jsonEscaped, jsonEscaped.replaceAll('/', '\\/')]);
  let result = text;
  for (const form of forms) result = result.split(form).join('[redacted]');
  return result;
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
