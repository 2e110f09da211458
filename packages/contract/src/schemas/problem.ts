import * as z from 'zod/mini';
import { integer } from './text-rules';

/**
 * Every `code` the service puts in a problem+json body, REST endpoints and mock-only routes
 * alike: one list, so the document, the mock and the client cannot drift apart.
 */
export const PROBLEM_CODES = [
  'validation_failed',
  'invalid_cursor',
  'malformed_json',
  'missing_token',
  'invalid_token',
  'forbidden_role',
  'feature_not_in_plan',
  'api_key_not_allowed',
  'website_limit_reached',
  'not_found',
  'workspace_not_found',
  'channel_not_found',
  'endpoint_not_found',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'webhook_verification_failed',
  'bad_request',
  'server_error',
  'missing_control_token',
  'invalid_control_token',
  'user_not_found',
  'api_key_not_found',
  'token_not_found',
  'website_not_found',
  'rule_not_found',
  'webhook_channel_not_found',
] as const;

/** One of {@link PROBLEM_CODES}. */
export type ProblemCode = (typeof PROBLEM_CODES)[number];

/**
 * The `code` of a problem body: any string. The document lists {@link PROBLEM_CODES} as an
 * open enum, since the service may add codes.
 */
export const ProblemCodeSchema = z.string();

/** One invalid field of a request. The service sends `path` as a dot path. */
export const ProblemFieldErrorSchema = z.looseObject({
  path: z.string(),
  message: z.string(),
});

/**
 * An RFC 9457 problem details body (`application/problem+json`) with the cspwatch `code`, as
 * the service sends it. Open, like every response: unknown fields are kept, and only the
 * types are stated.
 */
export const ProblemSchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: integer(),
  detail: z.string(),
  code: ProblemCodeSchema,
  errors: z.optional(z.array(ProblemFieldErrorSchema)),
});
