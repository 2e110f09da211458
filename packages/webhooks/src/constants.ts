/** Name of the header that carries the delivery's Unix time in milliseconds. */
export const TIMESTAMP_HEADER = 'x-cspwatch-timestamp';

/** Name of the header that carries `sha256=` + the lowercase hex HMAC-SHA256 signature. */
export const SIGNATURE_HEADER = 'x-cspwatch-signature';

/** How far (in ms, either direction) a delivery's timestamp may be from now: 5 minutes. */
export const DEFAULT_TOLERANCE_MS = 300_000;

/** The shortest signing secret accepted, in Unicode code points. */
export const MIN_SECRET_LENGTH = 8;

/** The scheme prefix of the signature header value. */
export const SIGNATURE_PREFIX = 'sha256=';

/**
 * The start of the `type` of every cspwatch problem body, the API's and a refused delivery's
 * alike: `urn:cspwatch:problem:<code>`, an RFC 9457 type URI naming the `code`.
 *
 * @example
 * ```ts
 * const type = `${PROBLEM_TYPE_PREFIX}signature_mismatch`; // 'urn:cspwatch:problem:signature_mismatch'
 * ```
 */
export const PROBLEM_TYPE_PREFIX = 'urn:cspwatch:problem:';
