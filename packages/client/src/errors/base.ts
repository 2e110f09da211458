/*
 * The root of the error hierarchy: the codes users `switch` on, the base class and the
 * guard that recognises errors from any installed copy of the package.
 */

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
  | 'repeated_cursor'
  | 'missing_cursor';

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
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'conflict'
  | 'unprocessable_content'
  | (string & {});

/** Every `code` a {@link CspwatchError} can carry: client codes and API codes. */
export type CspwatchErrorCode = CspwatchClientErrorCode | CspwatchApiErrorCode;

/** Options shared by the error constructors: the underlying `cause`. */
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
