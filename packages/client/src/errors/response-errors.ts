import type { core } from 'zod/mini';
import { CspwatchError, type CspwatchErrorOptions } from './base';

/*
 * A successful answer the client cannot use: a 2xx body of the wrong shape, or pagination
 * that would loop forever.
 */

/**
 * A 2xx response did not match the documented shape (or was not JSON). Carries the zod
 * issues, status, request id and raw body so the mismatch can be reported.
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchResponseValidationError) report(error.issues, error.rawBody);
 * ```
 */
export class CspwatchResponseValidationError extends CspwatchError {
  /** The class name, `'CspwatchResponseValidationError'`. */
  override name = 'CspwatchResponseValidationError' as const;
  /** What broke the schema, as zod reports it (empty when the body is not JSON). */
  readonly issues: readonly core.$ZodIssue[];
  /** HTTP status of the response. */
  readonly status: number;
  /** The `x-request-id` response header, when present. */
  readonly requestId: string | undefined;
  /** The response body as text. */
  readonly rawBody: string;

  /** Creates the error from the validation outcome. */
  constructor(
    message: string,
    details: {
      issues: readonly core.$ZodIssue[];
      status: number;
      requestId: string | undefined;
      rawBody: string;
    },
    options: CspwatchErrorOptions = {},
  ) {
    super(message, 'response_validation_failed', options);
    this.issues = details.issues;
    this.status = details.status;
    this.requestId = details.requestId;
    this.rawBody = details.rawBody;
  }
}

/** Longest part of a cursor shown in an error message; cursors can be kilobytes long. */
const CURSOR_PREVIEW = 16;

function preview(cursor: string): string {
  const points = [...cursor.slice(0, CURSOR_PREVIEW * 2)];
  return points.length > CURSOR_PREVIEW ? `${points.slice(0, CURSOR_PREVIEW).join('')}…` : cursor;
}

/**
 * Pagination that cannot go on safely: the server repeated a cursor (`code:
 * 'repeated_cursor'`, iteration would loop forever), or claimed more pages without sending
 * a cursor (`code: 'missing_cursor'`, stopping silently would truncate the list).
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchPaginationError && error.code === 'missing_cursor') alertOps();
 * ```
 */
export class CspwatchPaginationError extends CspwatchError {
  /** The class name, `'CspwatchPaginationError'`. */
  override name = 'CspwatchPaginationError' as const;
  /** What went wrong: a repeated cursor, or `hasMore: true` without a cursor. */
  declare readonly code: 'repeated_cursor' | 'missing_cursor';
  /** With `code: 'repeated_cursor'`: the cursor that came back; otherwise `undefined`. */
  readonly repeatedCursor: string | undefined;

  /**
   * Creates the error: pass the cursor that came back a second time, or `undefined` when
   * the server said `hasMore: true` but sent no `nextCursor`.
   */
  constructor(repeatedCursor: string | undefined) {
    super(
      repeatedCursor === undefined
        ? 'The server said more pages follow (hasMore: true) but sent no nextCursor; iteration stopped instead of returning a truncated list'
        : `The server returned a pagination cursor it had already returned ("${preview(repeatedCursor)}"); iteration stopped to avoid an endless loop`,
      repeatedCursor === undefined ? 'missing_cursor' : 'repeated_cursor',
    );
    this.repeatedCursor = repeatedCursor;
  }
}
