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
export type { CspwatchRequestLogEntry } from './debug-log';
export type {
  CspwatchApiErrorCode,
  CspwatchApiErrorDetails,
  CspwatchApiFieldError,
  CspwatchClientErrorCode,
  CspwatchErrorCode,
  CspwatchErrorOptions,
  CspwatchFieldIssue,
  CspwatchKnownApiErrorCode,
} from './errors';
export {
  CspwatchApiError,
  CspwatchAuthenticationError,
  CspwatchBadRequestError,
  CspwatchConflictError,
  CspwatchConnectionError,
  CspwatchError,
  CspwatchInputError,
  CspwatchNotFoundError,
  CspwatchPaginationError,
  CspwatchPermissionError,
  CspwatchRateLimitError,
  CspwatchResponseValidationError,
  CspwatchServerError,
  CspwatchTimeoutError,
  CspwatchTokenError,
  isCspwatchError,
} from './errors';
export type {
  CspwatchClientOptions,
  CspwatchHooks,
  CspwatchOutgoingRequest,
  CspwatchRequestOptions,
  CspwatchResponseView,
  CspwatchRetryContext,
  CspwatchTokenContext,
  CspwatchTokenProvider,
} from './options';
export { DEFAULT_CLIENT_OPTIONS, USER_AGENT } from './options';
export type { CursorPage, PageIterable, ToArrayOptions } from './paginate';
export { DEFAULT_TO_ARRAY_CAP } from './paginate';
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
