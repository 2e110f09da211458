import { redactUrls } from '@cspwatch/contract';
import {
  CspwatchIssuesError,
  hasErrorKind,
  type Issue,
  type IssuesErrorOptions,
} from '@cspwatch/internal';

/** Every `code` a {@link MockServerError} can carry. */
export type MockServerErrorCode =
  | 'invalid_options'
  | 'missing_peer'
  | 'unknown_workspace'
  | 'unknown_channel'
  | 'unknown_user'
  | 'unknown_api_key';

/**
 * One problem with the options or input given, as every cspwatch package reports it: the field
 * (`faults.latencyMs`), a `code` to branch on (`out_of_range`, `wrong_type`, …) and what to fix.
 */
export type MockServerIssue = Issue;

/**
 * The error the mock server's programmatic API throws: bad options, a reference to a
 * workspace or inbox channel that does not exist, or (`missing_peer`) `/msw` loaded without
 * msw installed. Errors on the wire are problem+json responses instead, never thrown.
 * `issues` lists each problem of `invalid_options` with its path (frozen; empty for the other
 * codes).
 *
 * @example
 * ```ts
 * try {
 *   await startMockServer({ port: -1 });
 * } catch (error) {
 *   if (isMockServerError(error)) console.error(error.code); // 'invalid_options'
 * }
 * ```
 */
export class MockServerError extends CspwatchIssuesError<MockServerErrorCode> {
  /** Marks instances, so `instanceof` and {@link isMockServerError} work across installed copies. */
  static readonly kind: string = '@cspwatch/mock-server.MockServerError';
  /** Always `'MockServerError'`, also after minification. */
  override readonly name = 'MockServerError' as const;

  /**
   * @param code - what went wrong
   * @param message - what to fix (never includes a token or secret; URLs in it are redacted)
   * @param options - `cause`, passed through to `Error`, and the `issues` of `invalid_options`
   */
  constructor(code: MockServerErrorCode, message: string, options?: MockServerErrorOptions) {
    super(code, redactUrls(message), options);
  }
}

/** Options of {@link MockServerError}'s constructor: `cause`, and the `issues` of `invalid_options`. */
export type MockServerErrorOptions = IssuesErrorOptions;

/**
 * Tells whether a value is a {@link MockServerError}, also when it comes from another
 * installed copy of this package.
 *
 * @example
 * ```ts
 * if (isMockServerError(error) && error.code === 'invalid_options') process.exit(2);
 * ```
 */
export function isMockServerError(value: unknown): value is MockServerError {
  return hasErrorKind(value, MockServerError.kind);
}
