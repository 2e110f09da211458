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
