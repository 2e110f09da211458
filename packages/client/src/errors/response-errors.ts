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

/**
 * The server sent a `nextCursor` it had already sent during this iteration; iteration stops
 * instead of looping forever.
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchPaginationError) console.log(error.repeatedCursor);
 * ```
 */
export class CspwatchPaginationError extends CspwatchError {
  /** The class name, `'CspwatchPaginationError'`. */
  override name = 'CspwatchPaginationError' as const;
  /** The cursor that came back a second time. */
  readonly repeatedCursor: string;

  /** Creates the error for the repeated cursor. */
  constructor(repeatedCursor: string) {
    super(
      'The server returned a pagination cursor it had already returned; iteration stopped to avoid an endless loop',
      'repeated_cursor',
    );
    this.repeatedCursor = repeatedCursor;
  }
}
