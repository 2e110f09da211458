import { CspwatchError, type CspwatchErrorOptions } from './cspwatch-error';

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
  /** The marker of this class, recognised across copies of the package. */
  static override readonly kind: string = '@cspwatch/client.CspwatchConnectionError';
  /** The class name, `'CspwatchConnectionError'`. */
  override readonly name = 'CspwatchConnectionError' as const;
  /** Always `connection_failed`. */
  override readonly code = 'connection_failed' as const;
  /** `false` when the failure happened before any byte could reach the server. */
  readonly requestMayHaveBeenSent: boolean;
  /** The host (and port) of the base URL. */
  readonly host: string;

  /** Wraps the network failure given as `cause`. */
  constructor(
    message: string,
    details: { requestMayHaveBeenSent: boolean; host: string },
    options: CspwatchErrorOptions,
  ) {
    super(message, 'connection_failed', options);
    this.requestMayHaveBeenSent = details.requestMayHaveBeenSent;
    this.host = details.host;
  }
}
