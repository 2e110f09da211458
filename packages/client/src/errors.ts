/*
 * The errors of @cspwatch/client, in one place for the rest of the package. The classes
 * live in errors/: the base, failures before an answer, unusable answers, API errors.
 */

export type {
  CspwatchApiErrorDetails,
  CspwatchApiErrorKind,
  CspwatchApiFieldError,
} from './errors/api-error';
export { CspwatchApiError } from './errors/api-error';
export {
  CspwatchAuthenticationError,
  CspwatchBadRequestError,
  CspwatchConflictError,
  CspwatchNotFoundError,
  CspwatchPermissionError,
  CspwatchRateLimitError,
  CspwatchServerError,
} from './errors/api-error-classes';
export type {
  CspwatchApiErrorCode,
  CspwatchClientErrorCode,
  CspwatchErrorCode,
  CspwatchErrorOptions,
} from './errors/base';
export { CspwatchError, isCspwatchError } from './errors/base';
export type { CspwatchFieldIssue } from './errors/request-errors';
export {
  CspwatchConnectionError,
  CspwatchInputError,
  CspwatchTimeoutError,
  CspwatchTokenError,
} from './errors/request-errors';
export { CspwatchPaginationError, CspwatchResponseValidationError } from './errors/response-errors';
