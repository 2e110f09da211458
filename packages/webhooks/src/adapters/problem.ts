import { PROBLEM_TYPE_PREFIX } from '../constants';
import {
  isReceiverSetupError,
  type WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from '../errors';

/** An RFC 9457 problem body describing why a delivery was refused. */
export interface WebhookProblem {
  /** `urn:cspwatch:problem:<code>`, see {@link PROBLEM_TYPE_PREFIX}. */
  type: `urn:cspwatch:problem:${WebhookVerificationErrorCode}`;
  /** The HTTP status text, e.g. `Bad Request`. */
  title: string;
  /**
   * `400` for a delivery that failed verification, `409` for a replayed one, `413` for one
   * over the size cap, `503` when the replay store could not check it (retry later), `500`
   * when the receiver itself is misconfigured (see {@link isReceiverSetupError}).
   */
  status: 400 | 409 | 413 | 500 | 503;
  /** What to check (never contains a secret). */
  detail: string;
  /** The error code, e.g. `signature_mismatch`. */
  code: WebhookVerificationErrorCode;
}

/** Media type of problem bodies. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** `Retry-After` (seconds) sent with a 503: time for the replay store to free claims. */
export const RETRY_AFTER_SECONDS = '60';

const STATUSES: Partial<Record<WebhookVerificationErrorCode, [WebhookProblem['status'], string]>> =
  {
    body_too_large: [413, 'Content Too Large'],
    replayed_delivery: [409, 'Conflict'],
    replay_store_unavailable: [503, 'Service Unavailable'],
  };

/** Response headers for a refusal: the problem media type, and `Retry-After` with a 503. */
export function problemHeaders(problem: WebhookProblem): Record<string, string> {
  return problem.status === 503
    ? { 'content-type': PROBLEM_CONTENT_TYPE, 'retry-after': RETRY_AFTER_SECONDS }
    : { 'content-type': PROBLEM_CONTENT_TYPE };
}

/**
 * Describes a refused delivery as a problem body.
 *
 * @example
 * ```ts
 * res.status(400).type('application/problem+json').send(toWebhookProblem(error));
 * ```
 */
export function toWebhookProblem(error: WebhookVerificationError): WebhookProblem {
  const [status, title]: [WebhookProblem['status'], string] = isReceiverSetupError(error)
    ? [500, 'Internal Server Error']
    : (STATUSES[error.code] ?? [400, 'Bad Request']);
  return {
    type: `${PROBLEM_TYPE_PREFIX}${error.code}`,
    title,
    status,
    detail: error.message,
    code: error.code,
  };
}

/**
 * Builds the Fetch `Response` for a refused delivery: `application/problem+json` with the
 * status of {@link toWebhookProblem} (and `Retry-After` with a 503).
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
    headers: problemHeaders(problem),
  });
}

/** A Node `ServerResponse` (Express, Next.js Pages Router): only what {@link sendWebhookProblem} writes. */
export interface ProblemResponseLike {
  /** Status code of the response. */
  statusCode: number;
  /** Sets one response header. */
  setHeader(name: string, value: string): unknown;
  /** Ends the response with a body. */
  end(chunk: string): unknown;
}

/**
 * Answers a refused delivery on a Node response: the status of {@link toWebhookProblem},
 * `application/problem+json`, `Retry-After` with a 503, and `connection: close` with a 413
 * (the rest of that body is not read).
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (!isWebhookVerificationError(error)) throw error;
 *   sendWebhookProblem(res, error);
 * }
 * ```
 */
export function sendWebhookProblem(
  res: ProblemResponseLike,
  error: WebhookVerificationError,
): void {
  const problem = toWebhookProblem(error);
  res.statusCode = problem.status;
  for (const [name, value] of Object.entries(problemHeaders(problem))) res.setHeader(name, value);
  if (problem.status === 413) res.setHeader('connection', 'close');
  res.end(JSON.stringify(problem));
}
