import { CspwatchError, type CspwatchErrorOptions } from './cspwatch-error';

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
  /** The marker of this class, recognised across copies of the package. */
  static override readonly kind: string = '@cspwatch/client.CspwatchTokenError';
  /** The class name, `'CspwatchTokenError'`. */
  override readonly name = 'CspwatchTokenError' as const;
  /** Always `token_unavailable`. */
  override readonly code = 'token_unavailable' as const;

  /** Creates the error. */
  constructor(message: string, options: CspwatchErrorOptions = {}) {
    super(message, 'token_unavailable', options);
  }
}
