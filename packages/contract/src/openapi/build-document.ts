import { openEnum } from './annotations';
import { componentSchemas, type JsonSchema, listQueryParameters } from './json-schemas';
import { CREATE_WEBSITE_ERRORS, type ErrorResponse, LIST_API_KEYS_ERRORS } from './operations';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/**
 * An error response: the problem body with this status's codes listed (open, like every
 * response enum: a new code must not break a generated client), and its headers.
 */
export function errorResponse({ status, description, codes }: ErrorResponse) {
  const headers: Record<string, unknown> = { 'x-request-id': header('RequestId') };
  if (status === '401') headers['www-authenticate'] = header('WwwAuthenticate');
  if (status === '429') headers['retry-after'] = header('RetryAfter');
  return {
    description: `${description} Codes: ${codes.map((code) => `\`${code}\``).join(', ')}.`,
    headers,
    content: {
      'application/problem+json': {
        schema: {
          allOf: [ref('Problem'), { properties: { code: openEnum(codes) } }],
        },
      },
    },
  };
}

function errorResponses(errors: readonly ErrorResponse[]) {
  return Object.fromEntries(errors.map((error) => [error.status, errorResponse(error)]));
}

const workspaceIdParameter = {
  name: 'workspaceId',
  in: 'path',
  required: true,
  description: 'The workspace.',
  schema: { type: 'string', minLength: 1 },
};

function queryParameter([name, { description, ...schema }]: [string, JsonSchema]) {
  return { name, in: 'query', required: false, description, schema };
}

/** What sets one generated document apart from the others in its head. */
export interface DocumentHeadOptions {
  /** `info.title`. */
  readonly title: string;
  /** `info.summary`: one line. */
  readonly summary: string;
  /** `info.description`: how the document was made and how to read it. */
  readonly description: string;
  /** What the `{baseUrl}` server variable stands for. */
  readonly serverDescription: string;
}

/**
 * The head every generated OpenAPI 3.1 document of cspwatch shares: version, `info` (MIT) and
 * one server whose `{baseUrl}` defaults to the mock's address.
 */
export function documentHead(options: DocumentHeadOptions): JsonSchema {
  return {
    openapi: '3.1.0',
    info: {
      title: options.title,
      version: '1',
      summary: options.summary,
      description: options.description,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: '{baseUrl}',
        description: options.serverDescription,
        variables: { baseUrl: { default: 'http://127.0.0.1:4010' } },
      },
    ],
  };
}

/**
 * Builds the OpenAPI 3.1 document of the cspwatch API from the contract's schemas: both REST
 * operations with every status the service answers, bearer auth, `x-request-id`, and the alert
 * delivery under `webhooks`. Deterministic: the same code gives the same document.
 */
export function buildOpenApiDocument(): JsonSchema {
  return {
    ...documentHead({
      title: 'cspwatch API',
      summary: 'List API keys, create websites, and receive signed CSP alert webhooks.',
      description:
        'Generated from the zod schemas of `@cspwatch/contract`; never edited by hand. Paths are relative to your cspwatch base URL. Responses are open: objects may gain fields (`additionalProperties: true`) and enums may gain values (each is `anyOf` its known values and any string), so read them leniently, as `@cspwatch/client` does; they state types, not ranges. Requests are strict: an unknown field is refused with `400 validation_failed`.',
      serverDescription: 'Your cspwatch base URL; the mock server and Prism listen on 127.0.0.1.',
    }),
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'API keys', description: 'API keys of a workspace (metadata only, never secrets).' },
      { name: 'Websites', description: 'Websites and their report endpoints.' },
      { name: 'Alerts', description: 'Signed webhook deliveries from cspwatch to you.' },
    ],
    paths: {
      '/v1/workspaces/{workspaceId}/api-keys': {
        get: {
          operationId: 'listApiKeys',
          tags: ['API keys'],
          summary: 'List API keys',
          description:
            'One page of the workspace API keys, newest first. Needs a user token (not an API key), the admin role, and the `api_keys` plan feature.',
          parameters: [workspaceIdParameter, ...listQueryParameters().map(queryParameter)],
          responses: {
            '200': {
              description: 'One page of keys; follow `pagination.nextCursor` for the next.',
              headers: { 'x-request-id': header('RequestId') },
              content: { 'application/json': { schema: ref('ApiKeyPage') } },
            },
            ...errorResponses(LIST_API_KEYS_ERRORS),
          },
        },
      },
      '/v1/workspaces/{workspaceId}/websites': {
        post: {
          operationId: 'createWebsite',
          tags: ['Websites'],
          summary: 'Create a website',
          description:
            "Creates a website and provisions its report endpoint (`endpointUrl`). Needs a user token and the admin role; counts against the plan's website limit. Not idempotent.",
          parameters: [workspaceIdParameter],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref('CreateWebsiteRequest') } },
          },
          responses: {
            '201': {
              description: 'The website, with its report endpoint.',
              headers: { 'x-request-id': header('RequestId') },
              content: { 'application/json': { schema: ref('Website') } },
            },
            ...errorResponses(CREATE_WEBSITE_ERRORS),
          },
        },
      },
    },
    webhooks: {
      alert: {
        post: {
          operationId: 'receiveAlert',
          tags: ['Alerts'],
          summary: 'Alert delivery',
          description:
            'cspwatch POSTs each alert to your webhook channel URL. Verify the signature over the raw body (HMAC-SHA256 of `<timestamp>.<body>` with the signing secret, hex) and that the timestamp is within 5 minutes before parsing it, e.g. with `@cspwatch/webhooks`. Answer any 2xx; anything else, a redirect included, is a failed delivery, and five in a row disable the channel.',
          security: [],
          parameters: [
            {
              name: 'x-cspwatch-timestamp',
              in: 'header',
              required: true,
              description: 'Unix time of the delivery in milliseconds, as ASCII digits.',
              schema: { type: 'string', pattern: '^[0-9]+$' },
              example: '1700000000000',
            },
            {
              name: 'x-cspwatch-signature',
              in: 'header',
              required: true,
              description:
                '`sha256=` followed by the lowercase hex HMAC-SHA256 of `<timestamp>.<raw body>`.',
              schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
              example: 'sha256=8aa62c35c0c6b8bd6344d3d249fbcb986b43f0b01e028ddca5d07bf69260f41e',
            },
          ],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref('Alert') } },
          },
          responses: {
            '2XX': { description: 'Delivered: any 2xx status acknowledges the alert.' },
            default: { description: 'Any other status (redirects included) is a failed delivery.' },
          },
        },
      },
    },
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An OpenID Connect access token of the signed-in user. API keys (`cwk_...`) are refused where a user token is needed.',
        },
      },
      headers: {
        RequestId: {
          description: 'Identifies this request; quote it when you report a problem.',
          required: true,
          schema: { type: 'string', minLength: 1, examples: ['req_5f2b9c1d8e7a6b5c4d3e2f1a'] },
        },
        RetryAfter: {
          description:
            'When to retry (RFC 9110): seconds to wait (`1`), or an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`). The mock sends seconds; read both.',
          required: true,
          schema: { type: 'string', examples: ['1', 'Wed, 21 Oct 2026 07:28:00 GMT'] },
        },
        WwwAuthenticate: {
          description:
            'The bearer challenge, e.g. `Bearer realm="cspwatch", error="invalid_token"`.',
          required: true,
          schema: { type: 'string', examples: ['Bearer realm="cspwatch"'] },
        },
      },
    },
  };
}
