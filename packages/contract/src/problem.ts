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

/** The `code` of a problem body. */
export const ProblemCodeSchema = z.enum(PROBLEM_CODES);

/** One invalid field of a request. */
export const ProblemFieldErrorSchema = z.strictObject({
  path: z.string().check(z.minLength(1)),
  message: z.string(),
});

/** An RFC 9457 problem details body (`application/problem+json`) with the cspwatch `code`. */
export const ProblemSchema = z.strictObject({
  type: z.string().check(z.regex(/^urn:cspwatch:problem:[a-z_]+$/)),
  title: z.string(),
  status: integer().check(z.minimum(400), z.maximum(599)),
  detail: z.string(),
  code: ProblemCodeSchema,
  errors: z.optional(z.array(ProblemFieldErrorSchema)),
});
