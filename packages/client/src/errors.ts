import type { core } from 'zod/mini';

const MARKER = Symbol.for('@cspwatch/client.error');

/**
 * Codes the client itself assigns, one per class of failure that did not come from an
 * API error body.
 */
export type CspwatchClientErrorCode =
  | 'invalid_options'
  | 'invalid_input'
  | 'connection_failed'
  | 'timeout'
  | 'token_unavailable'
  | 'response_validation_failed'
  | 'repeated_cursor';

/**
 * Codes the cspwatch API is known to send in problem+json bodies. When a body has no
 * `code`, the client derives one from the status (for example `not_found`, `http_500`).
 * The type stays open so a new server code is still a string you can compare.
 */
export type CspwatchApiErrorCode =
  | 'validation_failed'
  | 'invalid_cursor'
  | 'malformed_json'
  | 'missing_token'
  | 'invalid_token'
  | 'forbidden_role'
  | 'feature_not_in_plan'
  | 'api_key_not_allowed'
  | 'website_limit_reached'
  | 'workspace_not_found'
  | 'not_found'
  | 'rate_limited'
  | 'server_error'
  | (string & {});

/** Every `code` a {@link CspwatchError} can carry: client codes and API codes. */
export type CspwatchErrorCode = CspwatchClientErrorCode | CspwatchApiErrorCode;

/** Options shared by every error constructor: `cause` and the cursor of a failed page. */
export interface CspwatchErrorOptions {
  /** The underlying error, passed through as the standard `cause`. */
  cause?: unknown;
}

/**
 * Base class of every error thrown by `@cspwatch/client`.
 *
 * @example
 * ```ts
 * try { await client.websites.create(id, input); }
 * catch (error) { if (isCspwatchError(error)) console.log(error.code); }
 * ```
 */
export class CspwatchError extends Error {
  /** The class name, `'CspwatchError'`. */
  override name: string = 'CspwatchError';
  /** A snake_case identifier you can `switch` on. */
  readonly code: CspwatchErrorCode;
  /**
   * During list iteration: the cursor of the page whose request failed (`undefined` for
   * the first page), so you can resume with `list(id, { cursor: error.cursor })`.
   * Always `undefined` outside iteration; see {@link CspwatchError.failedDuringIteration}.
   */
  cursor: string | undefined = undefined;
  /** `true` when the error was thrown while iterating a list. */
  failedDuringIteration = false;

  /** Creates an error with a message and a code. */
  constructor(message: string, code: CspwatchErrorCode, options: CspwatchErrorOptions = {}) {
    super(message, 'cause' in options ? { cause: options.cause } : undefined);
    this.code = code;
    Object.defineProperty(this, MARKER, { value: true });
  }
}

/**
 * Tells whether a value is an error thrown by `@cspwatch/client`, even when it comes from
 * another installed copy of the package (it checks a `Symbol.for` marker, not `instanceof`).
 *
 * @example
 * ```ts
 * if (isCspwatchError(error) && error.code === 'website_limit_reached') upgradePlan();
 * ```
 */
export function isCspwatchError(value: unknown): value is CspwatchError {
  return typeof value === 'object' && value !== null && MARKER in value;
}

/** One invalid field of a call or of the client options. */
export interface CspwatchFieldIssue {
  /** Dotted path of the field, for example `limit` or `options.baseUrl`. */
  path: string;
  /** What is wrong and what to do instead. */
  message: string;
}

/**
 * Thrown before any request when an argument or a client option breaks a documented rule.
 * `fields` names each offending field; nothing was sent.
 *
 * @example
 * ```ts
 * catch (e) { if (e instanceof CspwatchInputError) for (const f of e.fields) log(f.path, f.message); }
 * ```
 */
export class CspwatchInputError extends CspwatchError {
  /** The class name, `'CspwatchInputError'`. */
  override name = 'CspwatchInputError' as const;
  /** Each offending field with its problem. */
  readonly fields: readonly CspwatchFieldIssue[];

  /** Builds the message from the field list. */
  constructor(
    fields: readonly CspwatchFieldIssue[],
    code: 'invalid_input' | 'invalid_options' = 'invalid_input',
  ) {
    const what = code === 'invalid_options' ? 'Invalid cspwatch client options' : 'Invalid input';
    super(`${what}: ${fields.map((f) => `${f.path}: ${f.message}`).join('; ')}`, code);
    this.fields = fields;
  }
}

/**
 * The request could not be completed at the network level (refused, reset, DNS failure).
 * `requestMayHaveBeenSent` is `false` only when the connection was never established.
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchConnectionError && !error.requestMayHaveBeenSent) retryLater();
 * ```
 */
export class CspwatchConnectionError extends CspwatchError {
  /** The class name, `'CspwatchConnectionError'`. */
  override name = 'CspwatchConnectionError' as const;
  /** `false` when the failure happened before any byte could reach the server. */
  readonly requestMayHaveBeenSent: boolean;

  /** Wraps the network failure given as `cause`. */
  constructor(message: string, requestMayHaveBeenSent: boolean, options: CspwatchErrorOptions) {
    super(message, 'connection_failed', options);
    this.requestMayHaveBeenSent = requestMayHaveBeenSent;
  }
}

/**
 * An attempt exceeded the per-attempt `timeout`, or the call exceeded `totalTimeout`.
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchTimeoutError) console.log(error.timeoutMs, error.scope);
 * ```
 */
export class CspwatchTimeoutError extends CspwatchError {
  /** The class name, `'CspwatchTimeoutError'`. */
  override name = 'CspwatchTimeoutError' as const;
  /** The limit that was reached, in milliseconds. */
  readonly timeoutMs: number;
  /** Which limit: one `attempt`, or the `total` budget of the call including retries. */
  readonly scope: 'attempt' | 'total';

  /** Creates a timeout error for the given limit. */
  constructor(timeoutMs: number, scope: 'attempt' | 'total', options: CspwatchErrorOptions = {}) {
    const what = scope === 'attempt' ? 'The request' : 'The call, including retries,';
    super(`${what} took longer than ${timeoutMs} ms`, 'timeout', options);
    this.timeoutMs = timeoutMs;
    this.scope = scope;
  }
}

/**
 * The `token` function threw or returned something other than a non-empty string.
 * Nothing was sent.
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchTokenError) reauthenticate(error.cause);
 * ```
 */
export class CspwatchTokenError extends CspwatchError {
  /** The class name, `'CspwatchTokenError'`. */
  override name = 'CspwatchTokenError' as const;

  /** Creates the error; the provider's own error is the `cause`. */
  constructor(message: string, options: CspwatchErrorOptions = {}) {
    super(message, 'token_unavailable', options);
  }
}

/**
 * A 2xx response did not match the documented shape (or was not JSON). Carries the zod
 * issues, status, request id and raw body so the mismatch can be reported.
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchResponseValidationError) report(error.issues, error.rawBody);
 * ```
 */
export class CspwatchResponseValidationError extends CspwatchError {
  /** The class name, `'CspwatchResponseValidationError'`. */
  override name = 'CspwatchResponseValidationError' as const;
  /** What broke the schema, as zod reports it (empty when the body is not JSON). */
  readonly issues: readonly core.$ZodIssue[];
  /** HTTP status of the response. */
  readonly status: number;
  /** The `x-request-id` response header, when present. */
  readonly requestId: string | undefined;
  /** The response body as text. */
  readonly rawBody: string;

  /** Creates the error from the validation outcome. */
  constructor(
    message: string,
    details: {
      issues: readonly core.$ZodIssue[];
      status: number;
      requestId: string | undefined;
      rawBody: string;
    },
    options: CspwatchErrorOptions = {},
  ) {
    super(message, 'response_validation_failed', options);
    this.issues = details.issues;
    this.status = details.status;
    this.requestId = details.requestId;
    this.rawBody = details.rawBody;
  }
}

/**
 * The server sent a `nextCursor` it had already sent during this iteration; iteration stops
 * instead of looping forever.
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchPaginationError) console.log(error.repeatedCursor);
 * ```
 */
export class CspwatchPaginationError extends CspwatchError {
  /** The class name, `'CspwatchPaginationError'`. */
  override name = 'CspwatchPaginationError' as const;
  /** The cursor that came back a second time. */
  readonly repeatedCursor: string;

  /** Creates the error for the repeated cursor. */
  constructor(repeatedCursor: string) {
    super(
      'The server returned a pagination cursor it had already returned; iteration stopped to avoid an endless loop',
      'repeated_cursor',
    );
    this.repeatedCursor = repeatedCursor;
  }
}

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

/**
 * `400`: the server refused the request as malformed (for example `invalid_cursor`).
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchBadRequestError) console.log(error.errors);
 * ```
 */
export class CspwatchBadRequestError extends CspwatchApiError {
  /** The class name, `'CspwatchBadRequestError'`. */
  override name = 'CspwatchBadRequestError' as const;
  override readonly kind = 'bad_request' as const;
}

/**
 * `401`: the token is missing, invalid or expired (after one forced refresh, if `token` is a function).
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchAuthenticationError) signInAgain();
 * ```
 */
export class CspwatchAuthenticationError extends CspwatchApiError {
  /** The class name, `'CspwatchAuthenticationError'`. */
  override name = 'CspwatchAuthenticationError' as const;
  override readonly kind = 'unauthorized' as const;
}

/**
 * `403`: the caller may not do this: `forbidden_role`, `feature_not_in_plan`,
 * `api_key_not_allowed` or `website_limit_reached` (see `code`).
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchPermissionError && error.code === 'website_limit_reached') upgrade();
 * ```
 */
export class CspwatchPermissionError extends CspwatchApiError {
  /** The class name, `'CspwatchPermissionError'`. */
  override name = 'CspwatchPermissionError' as const;
  override readonly kind = 'forbidden' as const;
}

/**
 * `404`: the workspace (or another resource in the path) does not exist.
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchNotFoundError) forgetWorkspace(id);
 * ```
 */
export class CspwatchNotFoundError extends CspwatchApiError {
  /** The class name, `'CspwatchNotFoundError'`. */
  override name = 'CspwatchNotFoundError' as const;
  override readonly kind = 'not_found' as const;
}

/**
 * `409` or `422`: the request conflicts with the current state or cannot be processed.
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchConflictError) console.log(error.status, error.detail);
 * ```
 */
export class CspwatchConflictError extends CspwatchApiError {
  /** The class name, `'CspwatchConflictError'`. */
  override name = 'CspwatchConflictError' as const;
  override readonly kind = 'conflict' as const;
}

/**
 * `429`: rate limited. Thrown after the retries are spent, or at once when `Retry-After`
 * asks for longer than `retryAfterCap`; `retryAfterMs` says how long the server asked to wait.
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchRateLimitError) setTimeout(retry, error.retryAfterMs ?? 1000);
 * ```
 */
export class CspwatchRateLimitError extends CspwatchApiError {
  /** The class name, `'CspwatchRateLimitError'`. */
  override name = 'CspwatchRateLimitError' as const;
  override readonly kind = 'rate_limited' as const;
}

/**
 * `5xx`: the server failed.
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchServerError) console.log('cspwatch failed', error.requestId);
 * ```
 */
export class CspwatchServerError extends CspwatchApiError {
  /** The class name, `'CspwatchServerError'`. */
  override name = 'CspwatchServerError' as const;
  override readonly kind = 'server_error' as const;
}
