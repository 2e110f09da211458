/*
 * Keeping the bearer token out of what the client hands back: a server may echo it in a
 * body or a header, and errors carry both.
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

/** A copy of response headers with the token redacted from every value. Internal. */
export function redactHeaders(headers: Headers, token: string): Headers {
  const copy = new Headers();
  for (const [name, value] of headers) copy.append(name, redact(value, token));
  return copy;
}
