import type { WebhookVerificationError, WebhookVerificationErrorCode } from '../errors';

/** An RFC 9457 problem body describing why a delivery was refused. */
export interface WebhookProblem {
  /** Always `about:blank`: the HTTP status says it all, `code` says why. */
  type: 'about:blank';
  /** The HTTP status text, e.g. `Bad Request`. */
  title: string;
  /** `400` for a delivery that failed verification, `413` for one over the size cap. */
  status: 400 | 413;
  /** What to check (never contains a secret). */
  detail: string;
  /** The error code, e.g. `signature_mismatch`. */
  code: WebhookVerificationErrorCode;
}

/** Media type of problem bodies. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * Describes a refused delivery as a problem body.
 *
 * @example
 * ```ts
 * res.status(400).type('application/problem+json').send(toWebhookProblem(error));
 * ```
 */
export function toWebhookProblem(error: WebhookVerificationError): WebhookProblem {
  const tooLarge = error.code === 'body_too_large';
  return {
    type: 'about:blank',
    title: tooLarge ? 'Content Too Large' : 'Bad Request',
    status: tooLarge ? 413 : 400,
    detail: error.message,
    code: error.code,
  };
}

/**
 * Builds the Fetch `Response` for a refused delivery: 400 (or 413) `application/problem+json`.
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (isWebhookVerificationError(error)) return createProblemResponse(error);
 *   throw error;
 * }
 * ```
 */
export function createProblemResponse(error: WebhookVerificationError): Response {
  const problem = toWebhookProblem(error);
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE },
  });
}
