import { CspwatchError, type CspwatchErrorOptions } from './cspwatch-error';
import { type CspwatchApiErrorCode, STATUS_CODES } from './error-codes';

/**
 * One entry of the `errors` list of a validation problem (`400 validation_failed`), read
 * whatever its shape: a value that is not a string is kept as its JSON text.
 */
export interface CspwatchApiFieldError {
  /**
   * The field the server refused, as the server names it: a dot path such as
   * `settings.allowedOrigins.0`; a path sent as an array or object is its JSON text
   * (`["settings","allowedOrigins",0]`); `''` when the entry has none.
   */
  path: string;
  /** Why the server refused it (JSON text when not a string; `''` when absent). */
  message: string;
}

/** What is read from a non-2xx response (token redacted); the API errors' constructor argument. */
export interface CspwatchApiErrorDetails {
  /** HTTP status code (`0` for a browser's opaque redirect). */
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

const describeApiError = (details: CspwatchApiErrorDetails) => {
  const detail = details.detail ? `: ${details.detail}` : '';
  const requestId = details.requestId ? `, request id ${details.requestId}` : '';
  return `${details.status} ${details.title}${detail} (code ${details.code}${requestId})`;
};

/**
 * The API answered with a non-2xx status. The subclass says which class of status; `code`
 * the precise reason the server sent (problem+json, RFC 9457). A 3xx is never followed: it
 * is this class itself, with `code: 'redirect_not_followed'` and `location`.
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchApiError && error.code === 'feature_not_in_plan') showUpsell();
 * ```
 */
export class CspwatchApiError extends CspwatchError {
  /** The marker of this class, recognised across copies of the package. */
  static override readonly kind: string = '@cspwatch/client.CspwatchApiError';
  /** The class name, `'CspwatchApiError'` or the subclass's. */
  override name: string = 'CspwatchApiError';
  /** The problem `code`, or one derived from the status. */
  override readonly code: CspwatchApiErrorCode;
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
  /** Response headers, the token redacted; `location` also without userinfo and query values. */
  readonly headers: Headers;
  /**
   * The response body as text, whatever its format, the token redacted, and the userinfo and
   * query values of URLs in it.
   */
  readonly rawBody: string;
  /** The wait asked for by a `Retry-After` header, in milliseconds, when present. */
  readonly retryAfterMs: number | undefined;
  /**
   * The `location` header of a 3xx answer (never followed), without its userinfo and with
   * every query value `[redacted]`, as every URL the SDK prints; `undefined` otherwise.
   */
  readonly location: string | undefined;

  /** Creates the error from what was read from the response. */
  constructor(details: CspwatchApiErrorDetails, options: CspwatchErrorOptions = {}) {
    super(describeApiError(details), details.code, options);
    this.code = details.code;
    this.status = details.status;
    this.title = details.title;
    this.detail = details.detail;
    this.type = details.type;
    this.errors = details.errors;
    this.requestId = details.requestId;
    this.headers = details.headers;
    this.rawBody = details.rawBody;
    this.retryAfterMs = details.retryAfterMs;
    this.location = details.headers.get('location') ?? undefined;
  }
}

/** `400`: the request was refused as malformed (`validation_failed`, `invalid_cursor`, …). */
export class CspwatchBadRequestError extends CspwatchApiError {
  /** The marker of this class, recognised across copies of the package. */
  static override readonly kind: string = '@cspwatch/client.CspwatchBadRequestError';
  /** The class name. */
  override name = 'CspwatchBadRequestError' as const;
}

/** `401`: the token is missing, invalid or expired (after one forced refresh of a token function). */
export class CspwatchAuthenticationError extends CspwatchApiError {
  /** The marker of this class, recognised across copies of the package. */
  static override readonly kind: string = '@cspwatch/client.CspwatchAuthenticationError';
  /** The class name. */
  override name = 'CspwatchAuthenticationError' as const;
}

/**
 * `403`: not allowed: `forbidden_role`, `feature_not_in_plan`, `api_key_not_allowed` or
 * `website_limit_reached` (see `code`).
 */
export class CspwatchPermissionError extends CspwatchApiError {
  /** The marker of this class, recognised across copies of the package. */
  static override readonly kind: string = '@cspwatch/client.CspwatchPermissionError';
  /** The class name. */
  override name = 'CspwatchPermissionError' as const;
}

/** `404`: the workspace (or another resource of the path) does not exist. */
export class CspwatchNotFoundError extends CspwatchApiError {
  /** The marker of this class, recognised across copies of the package. */
  static override readonly kind: string = '@cspwatch/client.CspwatchNotFoundError';
  /** The class name. */
  override name = 'CspwatchNotFoundError' as const;
}

/** `409` or `422`: the request conflicts with the current state or cannot be processed. */
export class CspwatchConflictError extends CspwatchApiError {
  /** The marker of this class, recognised across copies of the package. */
  static override readonly kind: string = '@cspwatch/client.CspwatchConflictError';
  /** The class name. */
  override name: string = 'CspwatchConflictError';
}

/**
 * `422`: the request is well-formed but cannot be processed. A {@link CspwatchConflictError}
 * too, so code that catches that class for a 422 keeps working.
 */
export class CspwatchUnprocessableEntityError extends CspwatchConflictError {
  /** The marker of this class, recognised across copies of the package. */
  static override readonly kind: string = '@cspwatch/client.CspwatchUnprocessableEntityError';
  /** The class name. */
  override name = 'CspwatchUnprocessableEntityError' as const;
}

/**
 * `429`: rate limited, after the retries, or at once when `Retry-After` asks for longer
 * than `retryAfterCap` (`retryAfterMs` says how long).
 */
export class CspwatchRateLimitError extends CspwatchApiError {
  /** The marker of this class, recognised across copies of the package. */
  static override readonly kind: string = '@cspwatch/client.CspwatchRateLimitError';
  /** The class name. */
  override name = 'CspwatchRateLimitError' as const;
}

/** `5xx`: the server failed. */
export class CspwatchServerError extends CspwatchApiError {
  /** The marker of this class, recognised across copies of the package. */
  static override readonly kind: string = '@cspwatch/client.CspwatchServerError';
  /** The class name. */
  override name = 'CspwatchServerError' as const;
}

const CLASS_OF_STATUS: Record<keyof typeof STATUS_CODES, typeof CspwatchApiError> = {
  400: CspwatchBadRequestError,
  401: CspwatchAuthenticationError,
  403: CspwatchPermissionError,
  404: CspwatchNotFoundError,
  409: CspwatchConflictError,
  422: CspwatchUnprocessableEntityError,
  429: CspwatchRateLimitError,
};

/** The API error class of a status, and the code used when the body has none. Internal. */
export function apiErrorClass(status: number): [typeof CspwatchApiError, string] {
  if (status >= 500 && status <= 599) return [CspwatchServerError, 'server_error'];
  const known = status as keyof typeof STATUS_CODES;
  return known in STATUS_CODES
    ? [CLASS_OF_STATUS[known], STATUS_CODES[known]]
    : [CspwatchApiError, `http_${status}`];
}
