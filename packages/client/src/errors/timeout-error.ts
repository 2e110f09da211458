import { CspwatchError, type CspwatchErrorOptions } from './cspwatch-error';

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
  /** The marker of this class, recognised across copies of the package. */
  static override readonly kind: string = '@cspwatch/client.CspwatchTimeoutError';
  /** The class name, `'CspwatchTimeoutError'`. */
  override readonly name = 'CspwatchTimeoutError' as const;
  /** Always `timeout`. */
  override readonly code = 'timeout' as const;
  /** The limit that was reached, in milliseconds. */
  readonly timeoutMs: number;
  /** Which limit: one `attempt`, or the `total` budget of the call. */
  readonly scope: 'attempt' | 'total';

  /** Creates a timeout error for the given limit. */
  constructor(timeoutMs: number, scope: 'attempt' | 'total', options: CspwatchErrorOptions = {}) {
    const what = scope === 'attempt' ? 'The request' : 'The call, including retries,';
    super(`${what} took longer than ${timeoutMs} ms`, 'timeout', options);
    this.timeoutMs = timeoutMs;
    this.scope = scope;
  }
}
