import { type CspwatchApiErrorCode, CspwatchError } from './base';

/*
 * The API answered with a non-2xx status: what is read from the response (problem+json,
 * RFC 9457, or any other body) and the class that carries it.
 */

/** Which class of HTTP failure an {@link CspwatchApiError} is; one value per subclass. */
export type CspwatchApiErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'server_error'
  | 'http_error';

/** One entry of the `errors` list of a validation problem (`400 validation_failed`). */
export interface CspwatchApiFieldError {
  /** The field the server refused, as the server names it. */
  path: string;
  /** Why the server refused it. */
  message: string;
}

/** Everything read from a non-2xx response; the argument of the API error constructors. */
export interface CspwatchApiErrorDetails {
  /** HTTP status code. */
  status: number;
  /** The problem `code`, or one derived from the status when the body has none. */
  code: CspwatchApiErrorCode;
  /** The problem `title`, or the status text. */
  title: string;
  /** The problem `detail`, when present. */
  detail: string | undefined;
  /** The problem `type` URI, when present. */
  type: string | undefined;
  /** Field errors of a validation problem (empty otherwise). */
  errors: readonly CspwatchApiFieldError[];
  /** The `x-request-id` response header, when present. */
  requestId: string | undefined;
  /** Response headers. */
  headers: Headers;
  /** The response body as text (whatever its format). */
  rawBody: string;
  /** The wait the server asked for with `Retry-After`, in milliseconds, when present. */
  retryAfterMs: number | undefined;
}

function describe(details: CspwatchApiErrorDetails): string {
  const detail = details.detail ? `: ${details.detail}` : '';
  const requestId = details.requestId ? `, request id ${details.requestId}` : '';
  return `${details.status} ${details.title}${detail} (code ${details.code}${requestId})`;
}

/**
 * The API answered with a non-2xx status. `kind` (and the subclass) tells the class of
 * failure; `code` the precise reason sent by the server (problem+json, RFC 9457).
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchApiError && error.code === 'feature_not_in_plan') showUpsell();
 * ```
 */
export class CspwatchApiError extends CspwatchError {
  /** The class name, `'CspwatchApiError'`. */
  override name: string = 'CspwatchApiError';
  /** The class of failure; each value except `http_error` has its own subclass. */
  readonly kind: CspwatchApiErrorKind = 'http_error';
  declare readonly code: CspwatchApiErrorCode;
  /** HTTP status code. */
  readonly status: number;
  /** Short summary from the problem body, or the status text. */
  readonly title: string;
  /** Explanation from the problem body, when present. */
  readonly detail: string | undefined;
  /** Problem `type` URI, when present. */
  readonly type: string | undefined;
  /** Field errors of a validation problem (empty otherwise). */
  readonly errors: readonly CspwatchApiFieldError[];
  /** The `x-request-id` response header: quote it when contacting support. */
  readonly requestId: string | undefined;
  /** Response headers. */
  readonly headers: Headers;
  /** The response body as text, whatever its format. */
  readonly rawBody: string;
  /** The wait asked for by a `Retry-After` header, in milliseconds, when present. */
  readonly retryAfterMs: number | undefined;

  /** Creates the error from what was read from the response. */
  constructor(details: CspwatchApiErrorDetails) {
    super(describe(details), details.code);
    this.status = details.status;
    this.title = details.title;
    this.detail = details.detail;
    this.type = details.type;
    this.errors = details.errors;
    this.requestId = details.requestId;
    this.headers = details.headers;
    this.rawBody = details.rawBody;
    this.retryAfterMs = details.retryAfterMs;
  }
}
