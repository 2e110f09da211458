/*
 * Keeping the bearer token out of what the client hands back: a server may echo it in a
 * body or a header, and errors carry both.
 */

/** The token as is and in its JSON-escaped forms (`"` and `\` escaped, `/` also `\/`). */
function tokenForms(token: string): string[] {
  const jsonEscaped = JSON.stringify(token).slice(1, -1);
  return [...new Set([token, jsonEscaped, jsonEscaped.replaceAll('/', '\\/')])];
}

function replaceForms(text: string, forms: string[]): string {
  let result = text;
  for (const form of forms) {
    if (result.includes(form)) result = result.split(form).join('[redacted]');
  }
  return result;
}

/**
 * Replaces every occurrence of the token, in case a server echoes it back: as is and in
 * its JSON-escaped forms. Internal.
 */
export function redact(text: string, token: string): string {
  return token ? replaceForms(text, tokenForms(token)) : text;
}

/** A copy of response headers with the token redacted from every value. Internal. */
export function redactHeaders(headers: Headers, token: string): Headers {
  const forms = token ? tokenForms(token) : [];
  const copy = new Headers();
  for (const [name, value] of headers) copy.append(name, replaceForms(value, forms));
  return copy;
}
