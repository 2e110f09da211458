/**
 * @cspwatch/contract: the cspwatch API written once, as zod schemas, and the generator of the
 * OpenAPI document and the alert JSON Schema. Private: bundled into the packages that use it.
 *
 * @packageDocumentation
 */

export {
  AlertSchema,
  AlertWebsiteSchema,
  AlertWindowSchema,
  NEW_TYPE_EVENT,
  NewTypeFindingSchema,
} from './alert';
export {
  ApiKeyCreatorSchema,
  ApiKeyPageSchema,
  ApiKeySchema,
  PaginationSchema,
} from './api-key';
export { type FieldError, toFieldErrors } from './field-errors';
export {
  DEFAULT_LIST_LIMIT,
  ListApiKeysQuerySchema,
  MAX_LIST_LIMIT,
  MAX_QUERY_LENGTH,
} from './list-query';
export {
  PROBLEM_CODES,
  type ProblemCode,
  ProblemCodeSchema,
  ProblemFieldErrorSchema,
  ProblemSchema,
} from './problem';
export { redactUrls } from './redact-urls';
export { codePointLength } from './text-rules';
export {
  CreateWebsiteRequestSchema,
  CreateWebsiteSettingsSchema,
  MAX_WEBSITE_NAME_LENGTH,
  MAX_WEBSITE_URL_LENGTH,
  UNKNOWN_FIELD_MESSAGE,
  WEBSITE_ROLES,
  WebsiteSchema,
  WebsiteSettingsSchema,
} from './website';
