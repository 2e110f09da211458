import { redactUrls } from '@cspwatch/contract';

/** Every `code` a {@link MockServerError} can carry. */
export type MockServerErrorCode =
  | 'invalid_options'
  | 'missing_peer'
  | 'unknown_workspace'
  | 'unknown_channel'
  | 'unknown_user'
  | 'unknown_api_key';

const MARKER = Symbol.for('@cspwatch/mock-server.MockServerError');

/**
 * The error the mock server's programmatic API throws: bad options, a reference to a
 * workspace or inbox channel that does not exist, or (`missing_peer`) `/msw` loaded without
 * msw installed. Errors on the wire are problem+json responses instead, never thrown.
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
export class MockServerError extends Error {
  /** Always `'MockServerError'`, also after minification. */
  override readonly name = 'MockServerError' as const;
  /** What went wrong, as a stable identifier to `switch` on. */
  readonly code: MockServerErrorCode;
  /**
   * @param code - what went wrong
   * @param message - what to fix (never includes a token or secret; URLs in it are redacted)
   * @param options - `cause`, passed through to `Error`
   */
  constructor(code: MockServerErrorCode, message: string, options?: { cause?: unknown }) {
    super(redactUrls(message), options);
    this.code = code;
    Object.defineProperty(this, MARKER, { value: true });
  }
}

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
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[MARKER] === true
  );
}
