import * as z from 'zod/mini';

/** Counts characters as code points, as JSON Schema's `minLength`/`maxLength` do. */
export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/**
 * A string of `min` to `max` code points. zod's own length checks count UTF-16 units, so the
 * rule runs as a refinement and is written into the JSON Schema as `minLength`/`maxLength`.
 */
export function codePointString(min: number, max: number, message: string) {
  return z.string('must be a string').check(
    z.refine((value) => {
      const length = codePointLength(value);
      return length >= min && length <= max;
    }, message),
    z.meta(min > 0 ? { minLength: min, maxLength: max } : { maxLength: max }),
  );
}

/** Characters RFC 3986 allows in a URI after `http(s)://` (ASCII only, percent-encoded). */
const HTTP_URI_SOURCE = "^[Hh][Tt][Tt][Pp][Ss]?://[A-Za-z0-9\\-._~:/?#\\[\\]@!$&'()*+,;=%]+$";
const HTTP_URI = new RegExp(HTTP_URI_SOURCE);

/** Whether a string is an absolute `http:`/`https:` URI that the WHATWG parser accepts too. */
export function isHttpUri(value: string): boolean {
  return HTTP_URI.test(value) && URL.canParse(value);
}

/** An absolute `http:`/`https:` URI of at most `max` characters (ASCII, so units = code points). */
export function httpUri(max: number, base = z.string('must be a string')) {
  return base.check(
    z.maxLength(max, `must be at most ${max} characters`),
    z.refine(isHttpUri, 'must be an absolute http: or https: URL such as https://example.com'),
    z.meta({ format: 'uri', pattern: HTTP_URI_SOURCE }),
  );
}

/** Whether a string is exactly an origin, as `new URL(value).origin` spells it. */
export function isOrigin(value: string): boolean {
  return URL.canParse(value) && new URL(value).origin === value;
}

/** An ISO 8601 UTC date-time such as `2026-01-01T10:00:00.000Z`. */
export const dateTime = () => z.iso.datetime();
