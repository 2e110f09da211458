import type { ProblemCode } from '../schemas/problem';

/** An error status an operation can answer, with the problem `code`s it carries. */
export interface ErrorResponse {
  /** `400`, or a range such as `5XX`. */
  status: string;
  /** What the status means on this operation. */
  description: string;
  /** Every `code` the body can carry with this status. */
  codes: readonly ProblemCode[];
}

const AUTH_ERRORS: readonly ErrorResponse[] = [
  {
    status: '401',
    description: 'No bearer token, or one the service does not accept.',
    codes: ['missing_token', 'invalid_token'],
  },
];

const COMMON_ERRORS: readonly ErrorResponse[] = [
  { status: '404', description: 'No workspace with this id.', codes: ['workspace_not_found'] },
  {
    status: '429',
    description: 'Too many requests: wait `Retry-After` seconds, then retry.',
    codes: ['rate_limited'],
  },
  {
    status: '5XX',
    description: 'The service failed; retry a GET, or a create that cannot duplicate, later.',
    codes: ['server_error'],
  },
];

/** Every error answer of `GET /v1/workspaces/{workspaceId}/api-keys`, as the mock service gives it. */
export const LIST_API_KEYS_ERRORS: readonly ErrorResponse[] = [
  {
    status: '400',
    description: 'A query parameter is invalid, or the cursor was not issued for this query.',
    codes: ['validation_failed', 'invalid_cursor'],
  },
  ...AUTH_ERRORS,
  {
    status: '403',
    description:
      'An API key was used (this endpoint needs a user token), the user is not an admin of the workspace, or the plan lacks the `api_keys` feature.',
    codes: ['api_key_not_allowed', 'forbidden_role', 'feature_not_in_plan'],
  },
  ...COMMON_ERRORS,
];

/** Every error answer of `POST /v1/workspaces/{workspaceId}/websites`, as the mock service gives it. */
export const CREATE_WEBSITE_ERRORS: readonly ErrorResponse[] = [
  {
    status: '400',
    description:
      'The body is not JSON, or a field is invalid or unknown (`errors` names each one).',
    codes: ['validation_failed', 'malformed_json'],
  },
  ...AUTH_ERRORS,
  {
    status: '403',
    description:
      "An API key was used, the user is not an admin of the workspace, or the plan's website limit is reached.",
    codes: ['api_key_not_allowed', 'forbidden_role', 'website_limit_reached'],
  },
  COMMON_ERRORS[0]!,
  {
    status: '413',
    description: 'The body is larger than 1 MB.',
    codes: ['payload_too_large'],
  },
  {
    status: '415',
    description: 'The body is not sent as `application/json`.',
    codes: ['unsupported_media_type'],
  },
  ...COMMON_ERRORS.slice(1),
];
