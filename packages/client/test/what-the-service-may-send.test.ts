/**
 * The client against a real HTTP server on loopback that sends what the document allows but
 * the client once refused or garbled (issue #26): a negative or huge `usageLimit`, a new
 * role and field, a `total` beyond 2^53, a non-string `errors[].path`, an HTTP-date
 * `Retry-After`, and a one-character token next to ordinary words.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { OpenApiValidator } from '@cspwatch/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCspwatchClient } from '../src/create-client';
import {
  type CspwatchApiError,
  CspwatchBadRequestError,
  CspwatchRateLimitError,
  CspwatchResponseValidationError,
} from '../src/index';
import { makeWebsite } from './fixtures';

/** What the server answers next: status, headers and the body as exact text. */
let answer: { status: number; headers: Record<string, string>; body: string };
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.once('end', () => {
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  baseUrl = `http://127.0.0.1:${port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const json = (status: number, body: string, headers: Record<string, string> = {}) => {
  answer = {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_1', ...headers },
    body,
  };
};
const problem = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  json(status, JSON.stringify(body), { 'content-type': 'application/problem+json', ...headers });
const client = (token = 'tok_1') => createCspwatchClient({ baseUrl, token, maxRetries: 0 });
const input = { name: 'Shop', url: 'https://shop.example.com' };
const validator = new OpenApiValidator();
/** What the committed document says of the answer just given to `method url`. */
const documentVerdict = (method: string, path: string) =>
  validator.checkResponse({
    method,
    url: `${baseUrl}${path}`,
    status: answer.status,
    headers: new Headers(answer.headers),
    body: answer.body,
  });

describe('the client reads what the service may send', () => {
  it('a website with a negative or huge usageLimit, a new role and a new field', async () => {
    for (const usageLimit of [-1, 1e21]) {
      json(201, JSON.stringify(makeWebsite({ usageLimit, role: 'owner', plan: { tier: 'pro' } })));
      const website = await client().websites.create('ws_1', input);
      expect(website).toMatchObject({ usageLimit, role: 'owner', plan: { tier: 'pro' } });
      expect(documentVerdict('POST', '/v1/workspaces/ws_1/websites')).toEqual([]);
    }
  });

  it('a total beyond 2^53 - 1: refused with an error that names the field and says why', async () => {
    json(
      200,
      '{"data":[],"pagination":{"nextCursor":null,"hasMore":false,"total":9007199254740993}}',
    );
    const error = await client()
      .apiKeys.list('ws_1')
      .firstPage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchResponseValidationError);
    const { issues, message } = error as CspwatchResponseValidationError;
    expect(issues.map((issue) => issue.path.join('.'))).toEqual(['pagination.total']);
    expect(message).toContain('pagination.total: must be an integer within ±(2^53 - 1)');
    expect(message).toContain('the largest a JavaScript number holds exactly');
    // The document allows it (an int64): a 64-bit client reads it exactly.
    expect(documentVerdict('GET', '/v1/workspaces/ws_1/api-keys')).toEqual([]);
  });

  it('errors[].path that is not a string, kept as JSON text', async () => {
    problem(400, {
      type: 'urn:cspwatch:problem:validation_failed',
      title: 'Validation failed',
      status: 400,
      detail: 'Fix the fields below.',
      code: 'validation_failed',
      errors: [
        { path: { pointer: '/settings/allowedOrigins/0' }, message: 'not an origin' },
        { path: ['name'], message: 'too long' },
      ],
    });
    const error = await client()
      .websites.create('ws_1', input)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchBadRequestError);
    expect((error as CspwatchApiError).errors).toEqual([
      { path: '{"pointer":"/settings/allowedOrigins/0"}', message: 'not an origin' },
      { path: '["name"]', message: 'too long' },
    ]);
  });

  it('a Retry-After given as an HTTP date', async () => {
    const later = new Date(Date.now() + 3_600_000).toUTCString();
    problem(
      429,
      {
        type: 'urn:cspwatch:problem:rate_limited',
        title: 'Too many requests',
        status: 429,
        detail: 'Come back later.',
        code: 'rate_limited',
      },
      { 'retry-after': later },
    );
    const error = await client()
      .apiKeys.list('ws_1')
      .firstPage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchRateLimitError);
    // About an hour: well above the 60 s cap, so it is thrown at once with the wait.
    const { retryAfterMs } = error as CspwatchRateLimitError;
    expect(retryAfterMs).toBeGreaterThan(3_000_000);
    expect(retryAfterMs).toBeLessThanOrEqual(3_600_000);
    expect(documentVerdict('GET', '/v1/workspaces/ws_1/api-keys')).toEqual([]);
  });

  it('with a one-character token, the code and texts stay whole and an echo is redacted', async () => {
    problem(
      400,
      {
        type: 'urn:cspwatch:problem:validation_failed',
        title: 'Validation failed',
        status: 400,
        detail: 'The token t is not accepted for this workspace.',
        code: 'validation_failed',
        errors: [{ path: 'settings.allowedOrigins.0', message: 'must be an origin' }],
      },
      { 'www-authenticate': 'Bearer t' },
    );
    const error = (await client('t')
      .websites.create('ws_1', input)
      .catch((e: unknown) => e)) as CspwatchApiError;
    expect(error).toMatchObject({
      code: 'validation_failed',
      title: 'Validation failed',
      detail: 'The token [redacted] is not accepted for this workspace.',
      errors: [{ path: 'settings.allowedOrigins.0', message: 'must be an origin' }],
    });
    expect(error.headers.get('www-authenticate')).toBe('Bearer [redacted]');
    expect(error.rawBody).toContain('"code":"validation_failed"');
    expect(error.message).toContain('code validation_failed');
  });
});
