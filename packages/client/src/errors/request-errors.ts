import { CspwatchError, type CspwatchErrorOptions } from './base';

/*
 * Failures before any HTTP answer: bad input or no token (nothing sent), or no response
 * at all (connection, timeout).
 */

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
