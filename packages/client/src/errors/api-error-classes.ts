import { CspwatchApiError } from './api-error';

/*
 * One subclass of {@link CspwatchApiError} per class of HTTP failure, so callers can use
 * `instanceof`; `kind` carries the same information as a discriminant.
 */

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
