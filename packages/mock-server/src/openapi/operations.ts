/**
 * The building blocks of the mock's operations: references, answers, the error responses every
 * control call shares, and {@link operation}, which adds them to one operation.
 */
import { type ErrorResponse, errorResponse, type JsonSchema } from '@cspwatch/contract/generator';

/** A reference to a component schema. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** The `x-request-id` header every answer carries. */
export const requestId = { 'x-request-id': { $ref: '#/components/headers/RequestId' } };
const jsonBody = (name: string) => ({
  required: true,
  content: { 'application/json': { schema: ref(name) } },
});
/** A JSON answer with the component `name` as its body (none without it). */
export const answer = (description: string, name?: string) => ({
  description,
  headers: requestId,
  ...(name ? { content: { 'application/json': { schema: ref(name) } } } : {}),
});
/** An HTML answer (the inbox page). */
export const html = (description: string) => ({
  description,
  headers: requestId,
  content: { 'text/html': {} },
});

const CONTROL_401: ErrorResponse = {
  status: '401',
  description: 'The mock runs with a control token and the request has none, or another.',
  codes: ['missing_control_token', 'invalid_control_token'],
};
const BODY_ERRORS: readonly ErrorResponse[] = [
  {
    status: '400',
    description: 'The body is not valid.',
    codes: ['validation_failed', 'malformed_json'],
  },
  { status: '413', description: 'The body is larger than 1 MB.', codes: ['payload_too_large'] },
  {
    status: '415',
    description: 'The body is not `application/json`.',
    codes: ['unsupported_media_type'],
  },
];
/** A `404` with its problem codes. */
export const notFound = (description: string, ...codes: ErrorResponse['codes']): ErrorResponse => ({
  status: '404',
  description,
  codes,
});

/** Error responses by status. */
export function errors(list: readonly ErrorResponse[]) {
  return Object.fromEntries(list.map((error) => [error.status, errorResponse(error)]));
}

interface OperationSpec {
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  parameters?: JsonSchema[];
  body?: string;
  responses: Record<string, unknown>;
  errors?: readonly ErrorResponse[];
  control?: boolean;
}

/** One operation: its answers plus the control API's `401` and, with a body, the body errors. */
export function operation({
  tag,
  body,
  errors: list = [],
  control = true,
  ...spec
}: OperationSpec) {
  const all = control ? [...list, CONTROL_401] : list;
  const withBody = body ? [...all, ...BODY_ERRORS] : [...all];
  withBody.sort((a, b) => a.status.localeCompare(b.status));
  return {
    operationId: spec.operationId,
    tags: [tag],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    ...(control ? {} : { security: [] }),
    ...(spec.parameters ? { parameters: spec.parameters } : {}),
    ...(body ? { requestBody: jsonBody(body) } : {}),
    responses: { ...spec.responses, ...errors(withBody) },
  };
}

/** A required path parameter. */
export const idParameter = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', minLength: 1 },
});
/** The `channelId` path parameter. */
export const channelId = idParameter('channelId', 'The channel id.');
/**
 * A delivery the inbox refuses, answered as the `@cspwatch/webhooks` adapters answer it: a
 * problem body whose `code` is the verifier's (not the API's codes, so not narrowed here).
 */
export function refusal(description: string) {
  return {
    description,
    headers: requestId,
    content: { 'application/problem+json': { schema: ref('Problem') } },
  };
}

/** A `204` answer. */
export const noContent = { '204': { description: 'Done.', headers: requestId } };
