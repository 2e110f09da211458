/**
 * @cspwatch/client: typed REST client for the cspwatch API. List a workspace's API keys with
 * lazy cursor iteration, create websites; typed errors, retries and zod-validated responses.
 *
 * @packageDocumentation
 */

export type {
  CspwatchPromise,
  CspwatchResponseInfo,
  CspwatchWithResponse,
} from './api-promise';
export { type CspwatchClient, createCspwatchClient } from './create-client';
export {
  CspwatchApiError,
  type CspwatchApiErrorDetails,
  type CspwatchApiFieldError,
  CspwatchAuthenticationError,
  CspwatchBadRequestError,
  CspwatchConflictError,
  CspwatchNotFoundError,
  CspwatchPermissionError,
  CspwatchRateLimitError,
  CspwatchServerError,
  CspwatchUnprocessableEntityError,
} from './errors/api-error';
export { CspwatchConnectionError } from './errors/connection-error';
export {
  CspwatchError,
  type CspwatchErrorOptions,
  isCspwatchError,
} from './errors/cspwatch-error';
export type {
  CspwatchApiErrorCode,
  CspwatchClientErrorCode,
  CspwatchErrorCode,
  CspwatchKnownApiErrorCode,
  StatusDerivedCode,
} from './errors/error-codes';
export { type CspwatchFieldIssue, CspwatchInputError } from './errors/input-error';
export {
  CspwatchPaginationError,
  type CspwatchPaginationProblem,
} from './errors/pagination-error';
export {
  type CspwatchResponseValidationDetails,
  CspwatchResponseValidationError,
} from './errors/response-validation-error';
export { CspwatchTimeoutError } from './errors/timeout-error';
export { CspwatchTokenError } from './errors/token-error';
export {
  type CspwatchClientOptions,
  type CspwatchRequestOptions,
  type CspwatchTokenContext,
  type CspwatchTokenProvider,
  DEFAULT_CLIENT_OPTIONS,
  USER_AGENT,
} from './options/client-options';
export type { CspwatchRequestLogEntry } from './options/debug-log';
export type {
  CspwatchHooks,
  CspwatchOutgoingRequest,
  CspwatchResponseView,
  CspwatchRetryContext,
} from './options/hooks';
export type { CursorPage, PageIterable, ToArrayOptions } from './pagination/paginate';
export { DEFAULT_TO_ARRAY_CAP } from './pagination/paginate';
export type { ApiKeyPage, ApiKeysResource, ListApiKeysOptions } from './resources/api-keys';
export type { CreateWebsiteOptions, WebsitesResource } from './resources/websites';
export type {
  ApiKey,
  CreateWebsiteInput,
  Pagination,
  Website,
  WebsiteSettings,
} from './schemas';
export {
  ApiKeyCreatorSchema,
  ApiKeyPageSchema,
  ApiKeySchema,
  CreateWebsiteInputSchema,
  PaginationSchema,
  WebsiteSchema,
  WebsiteSettingsSchema,
} from './schemas';
export type { CspwatchTracerProvider } from './telemetry/tracing';
export { VERSION } from './version';
