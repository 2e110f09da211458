import { redactUrls } from '@cspwatch/contract';
import type { core } from 'zod/mini';

/*
 * Every error of @cspwatch/client. One way to branch: the class says what failed
 * (`instanceof`), `code` says why (a snake_case string to `switch` on within a class).
 */

const MARKER = Symbol.for('@cspwatch/client.CspwatchError');

/** Codes the client assigns itself, for failures that did not come from an API error body. */
export type CspwatchClientErrorCode =
  | 'invalid_options'
  | 'invalid_input'
  | 'connection_failed'
  | 'timeout'
  | 'token_unavailable'
  | 'response_validation_failed'
  | 'repeated_cursor'
  | 'missing_cursor'
  | 'too_many_items'
  | 'redirect_not_followed';

/**
 * The codes of {@link CspwatchApiErrorCode} known by name: those the API's operations send in
 * problem+json bodies (pinned to the contract's list by a type test), and those the client
 * derives from the status when a body has none.
 */
export type CspwatchKnownApiErrorCode =
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
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'server_error'
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'conflict'
  | 'unprocessable_content'
  | 'redirect_not_followed';

/**
 * Codes the cspwatch API sends in problem+json bodies. A body without `code` gets one from
 * the status (`not_found`, `http_418`, …). Open, so a new server code is still a string.
 */
export type CspwatchApiErrorCode = CspwatchKnownApiErrorCode | (string & {});

/** Every `code` a {@link CspwatchError} can carry. */
export type CspwatchErrorCode = CspwatchClientErrorCode | CspwatchApiErrorCode;

/** Options of the error constructors, fixed when the error is built. */
export interface CspwatchErrorOptions {
  /** The underlying error, passed through as the standard `cause`. */
  cause?: unknown;
  /** Set when the error ends a list iteration. */
  iteration?:
    | {
        /** The cursor of the page that failed (`undefined` for the first page). */
        cursor: string | undefined;
      }
    | undefined;
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
  /** Why it failed: a snake_case identifier you can `switch` on. */
  declare readonly code: CspwatchErrorCode;
  /**
   * During list iteration: the cursor of the page whose request failed (`undefined` for the
   * first page); resume with `list(id, { cursor: error.cursor })`.
   */
  declare readonly cursor: string | undefined;
  /** `true` when the error ended a list iteration. */
  declare readonly failedDuringIteration: boolean;

  /**
   * Creates an error with a message and a code. The message passes the URL rule of every
   * package (no userinfo, no query value): it may quote what a server sent.
   */
  constructor(message: string, code: CspwatchErrorCode, options: CspwatchErrorOptions = {}) {
    super(redactUrls(message), 'cause' in options ? { cause: options.cause } : undefined);
    Object.assign(this, {
      code,
      cursor: options.iteration?.cursor,
      failedDuringIteration: options.iteration !== undefined,
    });
    Object.defineProperty(this, MARKER, { value: true });
  }
}

/**
 * Whether a value is an error of `@cspwatch/client`, also from another installed copy of
 * the package (it checks a `Symbol.for` marker, not `instanceof`).
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
  /** Dotted path of the field, for example `limit` or `headers.x-tenant`. */
  path: string;
  /** What is wrong and what to do instead. */
  message: string;
}

/**
 * An argument or option breaks a documented rule; nothing was sent. `fields` names each.
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchInputError) for (const f of error.fields) log(f.path, f.message);
 * ```
 */
export class CspwatchInputError extends CspwatchError {
  /** The class name, `'CspwatchInputError'`. */
  override name = 'CspwatchInputError' as const;
  declare readonly code: 'invalid_input' | 'invalid_options';
  /** Each offending field with its problem. */
  declare readonly fields: readonly CspwatchFieldIssue[];

  /** Builds the message from the field list. */
  constructor(
    fields: readonly CspwatchFieldIssue[],
    code: 'invalid_input' | 'invalid_options' = 'invalid_input',
  ) {
    const what = code === 'invalid_options' ? 'Invalid cspwatch client options' : 'Invalid input';
    super(`${what}: ${fields.map((f) => `${f.path}: ${f.message}`).join('; ')}`, code);
    Object.assign(this, { fields });
  }
}

/**
 * No response: refused, reset, DNS failure. `requestMayHaveBeenSent` is `false` only when
 * the connection was never made; `host` names the server that could not be reached.
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchConnectionError && !error.requestMayHaveBeenSent) retryLater();
 * ```
 */
export class CspwatchConnectionError extends CspwatchError {
  /** The class name, `'CspwatchConnectionError'`. */
  override name = 'CspwatchConnectionError' as const;
  declare readonly code: 'connection_failed';
  /** `false` when the failure happened before any byte could reach the server. */
  declare readonly requestMayHaveBeenSent: boolean;
  /** The host (and port) of the base URL. */
  declare readonly host: string;

  /** Wraps the network failure given as `cause`. */
  constructor(
    message: string,
    details: { requestMayHaveBeenSent: boolean; host: string },
    options: CspwatchErrorOptions,
  ) {
    super(message, 'connection_failed', options);
    Object.assign(this, details);
  }
}

/**
 * An attempt exceeded `timeout` (`scope: 'attempt'`, headers and body), or the whole call
 * exceeded `totalTimeout` (`scope: 'total'`, retries, waits and the token function included).
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchTimeoutError) console.log(error.timeoutMs, error.scope);
 * ```
 */
export class CspwatchTimeoutError extends CspwatchError {
  /** The class name, `'CspwatchTimeoutError'`. */
  override name = 'CspwatchTimeoutError' as const;
  declare readonly code: 'timeout';
  /** The limit that was reached, in milliseconds. */
  declare readonly timeoutMs: number;
  /** Which limit: one `attempt`, or the `total` budget of the call. */
  declare readonly scope: 'attempt' | 'total';

  /** Creates a timeout error for the given limit. */
  constructor(timeoutMs: number, scope: 'attempt' | 'total', options: CspwatchErrorOptions = {}) {
    const what = scope === 'attempt' ? 'The request' : 'The call, including retries,';
    super(`${what} took longer than ${timeoutMs} ms`, 'timeout', options);
    Object.assign(this, { timeoutMs, scope });
  }
}

/**
 * The `token` function threw (its error is the `cause`) or returned something other than a
 * non-empty single-line string. Nothing was sent.
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchTokenError) reauthenticate(error.cause);
 * ```
 */
export class CspwatchTokenError extends CspwatchError {
  /** The class name, `'CspwatchTokenError'`. */
  override name = 'CspwatchTokenError' as const;
  declare readonly code: 'token_unavailable';

  /** Creates the error. */
  constructor(message: string, options: CspwatchErrorOptions = {}) {
    super(message, 'token_unavailable', options);
  }
}

/**
 * A 2xx response that is not JSON or not the documented shape; `issues` are zod's.
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchResponseValidationError) report(error.issues, error.rawBody);
 * ```
 */
export class CspwatchResponseValidationError extends CspwatchError {
  /** The class name, `'CspwatchResponseValidationError'`. */
  override name = 'CspwatchResponseValidationError' as const;
  declare readonly code: 'response_validation_failed';
  /** What broke the schema, as zod reports it (empty when the body is not JSON). */
  declare readonly issues: readonly core.$ZodIssue[];
  /** HTTP status of the response. */
  declare readonly status: number;
  /** The `x-request-id` response header, when present. */
  declare readonly requestId: string | undefined;
  /** The response body as text, the token and the userinfo and query values of URLs redacted. */
  declare readonly rawBody: string;

  /** Creates the error from the validation outcome. */
  constructor(
    message: string,
    details: Pick<CspwatchResponseValidationError, 'issues' | 'status' | 'requestId' | 'rawBody'>,
    options: CspwatchErrorOptions = {},
  ) {
    super(message, 'response_validation_failed', options);
    Object.assign(this, details);
  }
}

const CURSOR_PREVIEW = 16;
const preview = (cursor: string) => {
  const points = [...cursor.slice(0, CURSOR_PREVIEW * 2)];
  return points.length > CURSOR_PREVIEW ? `${points.slice(0, CURSOR_PREVIEW).join('')}…` : cursor;
};

const PAGINATION_MESSAGES = {
  missing_cursor:
    'The server said hasMore: true but sent no nextCursor; stopped rather than truncate',
  repeated_cursor: (cursor: string) =>
    `The server repeated the cursor "${preview(cursor)}"; stopped to avoid an endless loop`,
  too_many_items: (max: number) =>
    `The list has more than ${max} items: pass toArray({ max: n }), or toArray({ max: Infinity }) to lift the cap`,
};

/**
 * A list that cannot be collected safely: the server repeated a cursor (`repeated_cursor`,
 * iteration would loop forever), claimed more pages without a cursor (`missing_cursor`,
 * stopping would truncate silently), or `toArray()` passed its default cap (`too_many_items`).
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchPaginationError && error.code === 'missing_cursor') alertOps();
 * ```
 */
export class CspwatchPaginationError extends CspwatchError {
  /** The class name, `'CspwatchPaginationError'`. */
  override name = 'CspwatchPaginationError' as const;
  declare readonly code: 'repeated_cursor' | 'missing_cursor' | 'too_many_items';
  /** With `code: 'repeated_cursor'`: the cursor that came back; otherwise `undefined`. */
  declare readonly repeatedCursor: string | undefined;

  /** Creates the error for one of the three failures. */
  constructor(
    problem:
      | { code: 'repeated_cursor'; cursor: string }
      | { code: 'missing_cursor' }
      | { code: 'too_many_items'; max: number },
    options: CspwatchErrorOptions = {},
  ) {
    const message =
      problem.code === 'missing_cursor'
        ? PAGINATION_MESSAGES.missing_cursor
        : problem.code === 'repeated_cursor'
          ? PAGINATION_MESSAGES.repeated_cursor(problem.cursor)
          : PAGINATION_MESSAGES.too_many_items(problem.max);
    super(message, problem.code, options);
    Object.assign(this, {
      repeatedCursor: problem.code === 'repeated_cursor' ? problem.cursor : undefined,
    });
  }
}

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
  /** The class name, `'CspwatchApiError'` or the subclass's. */
  override name: string = 'CspwatchApiError';
  declare readonly code: CspwatchApiErrorCode;
  /** HTTP status code. */
  declare readonly status: number;
  /** Short summary from the problem body, or the status text. */
  declare readonly title: string;
  /** Explanation from the problem body, when present. */
  declare readonly detail: string | undefined;
  /** Problem `type` URI, when present. */
  declare readonly type: string | undefined;
  /** Field errors of a validation problem (empty otherwise). */
  declare readonly errors: readonly CspwatchApiFieldError[];
  /** The `x-request-id` response header: quote it when contacting support. */
  declare readonly requestId: string | undefined;
  /** Response headers, the token redacted; `location` also without userinfo and query values. */
  declare readonly headers: Headers;
  /**
   * The response body as text, whatever its format, the token redacted, and the userinfo and
   * query values of URLs in it.
   */
  declare readonly rawBody: string;
  /** The wait asked for by a `Retry-After` header, in milliseconds, when present. */
  declare readonly retryAfterMs: number | undefined;
  /**
   * The `location` header of a 3xx answer (never followed), without its userinfo and with
   * every query value `[redacted]`, as every URL the SDK prints; `undefined` otherwise.
   */
  declare readonly location: string | undefined;

  /** Creates the error from what was read from the response. */
  constructor(details: CspwatchApiErrorDetails, options: CspwatchErrorOptions = {}) {
    super(describeApiError(details), details.code, options);
    Object.assign(this, details, { location: details.headers.get('location') ?? undefined });
  }
}

/** `400`: the request was refused as malformed (`validation_failed`, `invalid_cursor`, …). */
export class CspwatchBadRequestError extends CspwatchApiError {
  /** The class name. */
  override name = 'CspwatchBadRequestError' as const;
}

/** `401`: the token is missing, invalid or expired (after one forced refresh of a token function). */
export class CspwatchAuthenticationError extends CspwatchApiError {
  /** The class name. */
  override name = 'CspwatchAuthenticationError' as const;
}

/**
 * `403`: not allowed: `forbidden_role`, `feature_not_in_plan`, `api_key_not_allowed` or
 * `website_limit_reached` (see `code`).
 */
export class CspwatchPermissionError extends CspwatchApiError {
  /** The class name. */
  override name = 'CspwatchPermissionError' as const;
}

/** `404`: the workspace (or another resource of the path) does not exist. */
export class CspwatchNotFoundError extends CspwatchApiError {
  /** The class name. */
  override name = 'CspwatchNotFoundError' as const;
}

/** `409` or `422`: the request conflicts with the current state or cannot be processed. */
export class CspwatchConflictError extends CspwatchApiError {
  /** The class name. */
  override name = 'CspwatchConflictError' as const;
}

/**
 * `429`: rate limited, after the retries, or at once when `Retry-After` asks for longer
 * than `retryAfterCap` (`retryAfterMs` says how long).
 */
export class CspwatchRateLimitError extends CspwatchApiError {
  /** The class name. */
  override name = 'CspwatchRateLimitError' as const;
}

/** `5xx`: the server failed. */
export class CspwatchServerError extends CspwatchApiError {
  /** The class name. */
  override name = 'CspwatchServerError' as const;
}

const BY_STATUS: Record<number, [typeof CspwatchApiError, string]> = {
  400: [CspwatchBadRequestError, 'bad_request'],
  401: [CspwatchAuthenticationError, 'unauthorized'],
  403: [CspwatchPermissionError, 'forbidden'],
  404: [CspwatchNotFoundError, 'not_found'],
  409: [CspwatchConflictError, 'conflict'],
  422: [CspwatchConflictError, 'unprocessable_content'],
  429: [CspwatchRateLimitError, 'rate_limited'],
};

/** The API error class of a status, and the code used when the body has none. Internal. */
export function apiErrorClass(status: number): [typeof CspwatchApiError, string] {
  if (status >= 500 && status <= 599) return [CspwatchServerError, 'server_error'];
  return BY_STATUS[status] ?? [CspwatchApiError, `http_${status}`];
}
