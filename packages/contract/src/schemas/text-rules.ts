import * as z from 'zod/mini';

/*
 * Leaf rules shared by the schemas. They carry no JSON Schema metadata: that lives in
 * `openapi/annotations.ts`, so the code the client bundles stays small.
 */

/** Counts characters as code points, as JSON Schema's `minLength`/`maxLength` do. */
export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/** RFC 3986 unreserved and sub-delims characters, as the inside of a bracket expression. */
const PLAIN = "A-Za-z0-9\\-._~!$&'()*+,;=";
/** One character of `set`, or a percent-encoded octet (`%` and exactly two hex digits). */
const charOf = (set: string) => `(?:[${set}]|%[0-9A-Fa-f]{2})`;
/** An RFC 3986 `pchar`. */
const PCHAR = charOf(`${PLAIN}:@`);

/**
 * An absolute `http:`/`https:` URI by the RFC 3986 grammar (ASCII only): userinfo, a host
 * (an IP literal in brackets or a reg-name), a port of digits, then path, query and fragment
 * of `pchar`s. `%` must start two hex digits; `[` and `]` appear only around an IP literal;
 * `#` only once.
 */
export const HTTP_URI_PATTERN = `^[Hh][Tt][Tt][Pp][Ss]?://(?:${charOf(`${PLAIN}:`)}*@)?(?:\\[[0-9A-Fa-f:.]+\\]|${charOf(PLAIN)}*)(?::[0-9]*)?(?:/${PCHAR}*)*(?:\\?(?:${PCHAR}|[/?])*)?(?:#(?:${PCHAR}|[/?])*)?$`;
const HTTP_URI = new RegExp(HTTP_URI_PATTERN);

/** Whether a string is an absolute `http:`/`https:` URI that the WHATWG parser accepts too. */
export function isHttpUri(value: string): boolean {
  return HTTP_URI.test(value) && URL.canParse(value);
}

/** Whether a string is exactly an origin, as `new URL(value).origin` spells it. */
export function isOrigin(value: string): boolean {
  return URL.canParse(value) && new URL(value).origin === value;
}

/** One instance for every ISO 8601 UTC date-time field; `openapi/annotations.ts` gives it its format. */
export const DateTimeSchema = z.string();

/**
 * An integer field. zod's `z.int()` pulls in a number-format class the client does not
 * otherwise need; a refinement does the same check, and the generator writes it as
 * `type: integer` (see `json-schemas.ts`).
 */
export const integer = () => z.number().check(z.refine(Number.isSafeInteger, 'must be an integer'));

/**
 * An integer a response may carry at any size, negative too: the spec gives only "integer".
 * Beyond 2^53 it reads as the nearest JavaScript number (`1e21` is exact); written as
 * `type: integer` like {@link integer}.
 */
export const anyInteger = () => z.number().check(z.refine(Number.isInteger, 'must be an integer'));

/** Why a count beyond `Number.MAX_SAFE_INTEGER` is refused rather than read. */
export const EXACT_COUNT_MESSAGE =
  'must be an integer within ±(2^53 - 1), the largest a JavaScript number holds exactly';

/**
 * A count that must be exact (`pagination.total`): an integer up to 2^53 - 1, the largest a
 * JavaScript number holds exactly. A larger one is refused with {@link EXACT_COUNT_MESSAGE}
 * rather than rounded; written as `type: integer`.
 */
export const exactCount = () =>
  z.number().check(z.refine(Number.isSafeInteger, EXACT_COUNT_MESSAGE));
