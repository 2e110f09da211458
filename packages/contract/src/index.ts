/**
 * @cspwatch/contract: the cspwatch API written once, as zod schemas, and the generator of the
 * OpenAPI document and the alert JSON Schema. Private: bundled into the packages that use it.
 *
 * @packageDocumentation
 */

export { redactUrls } from './redact-urls';
export {
  AlertSchema,
  AlertWebsiteSchema,
  AlertWindowSchema,
  NEW_TYPE_EVENT,
  NewTypeFindingSchema,
} from './schemas/alert';
export {
  ApiKeyCreatorSchema,
  ApiKeyPageSchema,
  ApiKeySchema,
  PaginationSchema,
} from './schemas/api-key';
export { type FieldError, toFieldErrors } from './schemas/field-errors';
export {
  DEFAULT_LIST_LIMIT,
  ListApiKeysQuerySchema,
  MAX_LIST_LIMIT,
  MAX_QUERY_LENGTH,
} from './schemas/list-query';
export {
  PROBLEM_CODES,
  type ProblemCode,
  ProblemCodeSchema,
  ProblemFieldErrorSchema,
  ProblemSchema,
} from './schemas/problem';
export { codePointLength, HTTP_URI_PATTERN, isHttpUri } from './schemas/text-rules';
export {
  CreateWebsiteRequestSchema,
  CreateWebsiteSettingsSchema,
  MAX_WEBSITE_NAME_LENGTH,
  MAX_WEBSITE_URL_LENGTH,
  UNKNOWN_FIELD_MESSAGE,
  WEBSITE_ROLES,
  WebsiteSchema,
  WebsiteSettingsSchema,
} from './schemas/website';
