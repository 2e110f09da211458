import type { ProblemCode as ContractProblemCode } from '@cspwatch/contract';
import { PROBLEM_TYPE_PREFIX } from '@cspwatch/webhooks';
import { textResponse } from './response-text';

/** Every `code` the mock service puts in a problem+json body: the contract's one list. */
export type ProblemCode = ContractProblemCode;

/** One invalid field of a request: where it is and what to fix. */
export interface ProblemFieldError {
  /** The field, dotted for nested fields: `limit`, `name`, `settings.allowedOrigins.0`. */
  path: string;
  /** What is wrong and what is expected. */
  message: string;
}

/** An RFC 9457 problem details body, with the cspwatch `code` and validation `errors`. */
export interface ProblemDetails {
  /** `urn:cspwatch:problem:<code>`. */
  type: string;
  /** Short summary of the problem type. */
  title: string;
  /** HTTP status code. */
  status: number;
  /** What happened in this occurrence, and what to do. */
  detail: string;
  /** Stable snake_case identifier. */
  code: ProblemCode;
  /** For `validation_failed` and `invalid_cursor`: each invalid field. */
  errors?: ProblemFieldError[];
}

const TITLES: Record<ProblemCode, string> = {
  validation_failed: 'Validation failed',
  invalid_cursor: 'Invalid cursor',
  malformed_json: 'Malformed JSON',
  missing_token: 'Missing bearer token',
  invalid_token: 'Invalid bearer token',
  forbidden_role: 'Role not allowed',
  feature_not_in_plan: 'Feature not in plan',
  api_key_not_allowed: 'API keys not allowed',
  website_limit_reached: 'Website limit reached',
  not_found: 'Not found',
  workspace_not_found: 'Workspace not found',
  channel_not_found: 'Channel not found',
  endpoint_not_found: 'Report endpoint not found',
  method_not_allowed: 'Method not allowed',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  rate_limited: 'Too many requests',
  webhook_verification_failed: 'Webhook verification failed',
  bad_request: 'Bad request',
  server_error: 'Server error',
  missing_control_token: 'Missing control token',
  invalid_control_token: 'Invalid control token',
  user_not_found: 'User not found',
  api_key_not_found: 'API key not found',
  token_not_found: 'Token not found',
  website_not_found: 'Website not found',
  rule_not_found: 'Alert rule not found',
  webhook_channel_not_found: 'Webhook channel not found',
};

/** Options of {@link problem}. */
export interface ProblemOptions {
  status: number;
  code: ProblemCode;
  detail: string;
  errors?: ProblemFieldError[];
  headers?: Record<string, string>;
}

/** Builds the problem details body of {@link problem}. */
export function problemDetails({ status, code, detail, errors }: ProblemOptions): ProblemDetails {
  return {
    type: `${PROBLEM_TYPE_PREFIX}${code}`,
    title: TITLES[code],
    status,
    detail,
    code,
    ...(errors ? { errors } : {}),
  };
}

/** Builds an `application/problem+json` response. */
export function problem(options: ProblemOptions): Response {
  const { status, headers } = options;
  return textResponse(JSON.stringify(problemDetails(options)), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });
}

/** Builds a `400 validation_failed` listing every invalid field; a whole-body error is spelled out. */
export function validationProblem(errors: ProblemFieldError[]): Response {
  const whole = errors.find((error) => error.path === '(body)');
  const fields = errors.map((error) => error.path).join(', ');
  return problem({
    status: 400,
    code: 'validation_failed',
    detail: whole ? `Invalid request body: ${whole.message}` : `Invalid request: fix ${fields}.`,
    errors,
  });
}

/** Builds a JSON success response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return textResponse(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
