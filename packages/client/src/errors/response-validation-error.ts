import type { core } from 'zod/mini';
import { CspwatchError, type CspwatchErrorOptions } from './cspwatch-error';

/** What a {@link CspwatchResponseValidationError} reports of the response it refused. */
export interface CspwatchResponseValidationDetails {
  /** What broke the schema, as zod reports it (empty when the body is not JSON). */
  issues: readonly core.$ZodIssue[];
  /** HTTP status of the response. */
  status: number;
  /** The `x-request-id` response header, when present. */
  requestId: string | undefined;
  /** The response body as text, the token and the userinfo and query values of URLs redacted. */
  rawBody: string;
}

/**
 * A 2xx response that is not JSON or not the documented shape; `issues` are zod's.
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchResponseValidationError) report(error.issues, error.rawBody);
 * ```
 */
export class CspwatchResponseValidationError extends CspwatchError {
  /** The marker of this class, recognised across copies of the package. */
  static override readonly kind: string = '@cspwatch/client.CspwatchResponseValidationError';
  /** The class name, `'CspwatchResponseValidationError'`. */
  override readonly name = 'CspwatchResponseValidationError' as const;
  /** Always `response_validation_failed`. */
  override readonly code = 'response_validation_failed' as const;
  /** What broke the schema, as zod reports it (empty when the body is not JSON). */
  readonly issues: readonly core.$ZodIssue[];
  /** HTTP status of the response. */
  readonly status: number;
  /** The `x-request-id` response header, when present. */
  readonly requestId: string | undefined;
  /** The response body as text, the token and the userinfo and query values of URLs redacted. */
  readonly rawBody: string;

  /** Creates the error from the validation outcome. */
  constructor(
    message: string,
    details: CspwatchResponseValidationDetails,
    options: CspwatchErrorOptions = {},
  ) {
    super(message, 'response_validation_failed', options);
    this.issues = details.issues;
    this.status = details.status;
    this.requestId = details.requestId;
    this.rawBody = details.rawBody;
  }
}
