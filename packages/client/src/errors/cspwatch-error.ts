import { redactUrls } from '@cspwatch/contract';
import { CspwatchBaseError, hasErrorKind } from '@cspwatch/internal';
import type { CspwatchErrorCode } from './error-codes';

/*
 * The base of every error of @cspwatch/client. One way to branch: the class says what failed
 * (`instanceof`), `code` says why (a snake_case string to `switch` on within a class).
 */

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
 * Base class of every error thrown by `@cspwatch/client`. `instanceof` also recognises an
 * error of another installed copy of the package.
 *
 * @example
 * ```ts
 * try { await client.websites.create(id, input); }
 * catch (error) { if (isCspwatchError(error)) console.log(error.code); }
 * ```
 */
export class CspwatchError extends CspwatchBaseError<CspwatchErrorCode> {
  /** The marker every copy of the package recognises (the one 0.1.0 set). */
  static readonly kind: string = '@cspwatch/client.CspwatchError';
  /** The class name, `'CspwatchError'`. */
  override name: string = 'CspwatchError';
  /**
   * During list iteration: the cursor of the page whose request failed (`undefined` for the
   * first page); resume with `list(id, { cursor: error.cursor })`.
   */
  readonly cursor: string | undefined;
  /** `true` when the error ended a list iteration. */
  readonly failedDuringIteration: boolean;

  /**
   * Creates an error with a message and a code. The message passes the URL rule of every
   * package (no userinfo, no query value): it may quote what a server sent.
   */
  constructor(message: string, code: CspwatchErrorCode, options: CspwatchErrorOptions = {}) {
    super(code, redactUrls(message), 'cause' in options ? { cause: options.cause } : undefined);
    this.cursor = options.iteration?.cursor;
    this.failedDuringIteration = options.iteration !== undefined;
  }
}

/**
 * Whether a value is an error of `@cspwatch/client`, also from another installed copy of
 * the package (the same test as `instanceof CspwatchError`).
 *
 * @example
 * ```ts
 * if (isCspwatchError(error) && error.code === 'website_limit_reached') upgradePlan();
 * ```
 */
export function isCspwatchError(value: unknown): value is CspwatchError {
  return hasErrorKind(value, CspwatchError.kind);
}
