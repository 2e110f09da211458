import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, problemResponse, SECRET_TOKEN } from '../../test/fixtures';
import { createCspwatchClient } from '../create-client';
import {
  CspwatchApiError,
  CspwatchAuthenticationError,
  CspwatchBadRequestError,
  CspwatchConflictError,
  CspwatchNotFoundError,
  CspwatchPermissionError,
  CspwatchRateLimitError,
  CspwatchServerError,
  CspwatchUnprocessableEntityError,
} from './api-error';
import { CspwatchError, isCspwatchError } from './cspwatch-error';
import { CspwatchInputError } from './input-error';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const LIST_URL = `${BASE_URL}/v1/workspaces/ws_1/api-keys`;
const client = createCspwatchClient({ baseUrl: BASE_URL, token: SECRET_TOKEN, maxRetries: 0 });
const failWith = (response: () => Response) => {
  server.use(http.get(LIST_URL, response));
  return client.apiKeys
    .list('ws_1')
    .firstPage()
    .catch((e: unknown) => e);
};

describe('API errors', () => {
  it.each([
    [400, CspwatchBadRequestError],
    [401, CspwatchAuthenticationError],
    [403, CspwatchPermissionError],
    [404, CspwatchNotFoundError],
    [409, CspwatchConflictError],
    [422, CspwatchUnprocessableEntityError],
    [429, CspwatchRateLimitError],
    [500, CspwatchServerError],
    [503, CspwatchServerError],
    [418, CspwatchApiError],
  ] as const)('maps %i to %o', async (status, ErrorClass) => {
    const error = await failWith(() => problemResponse(status, 'some_code'));
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(CspwatchApiError);
    expect(error).toBeInstanceOf(CspwatchError);
    expect(error).toMatchObject({
      status,
      code: 'some_code',
      title: 'Title of some_code',
      detail: 'Detail of some_code',
      type: 'urn:cspwatch:problem:some_code',
      requestId: `req_${status}`,
      name: ErrorClass.name,
    });
    expect((error as CspwatchApiError).headers.get('content-type')).toBe(
      'application/problem+json',
    );
    expect((error as Error).message).toContain(`req_${status}`);
  });

  it('reads validation errors and Retry-After', async () => {
    const error = await failWith(() =>
      HttpResponse.json(
        {
          title: 'Validation failed',
          status: 400,
          code: 'validation_failed',
          errors: [
            { path: 'limit', message: 'too big' },
            { path: ['a', 0], message: 'bad' },
            { path: { pointer: '/settings/allowedOrigins/0' }, message: 'not an origin' },
            { path: 7, message: { en: 'wrong' } },
            { message: 'the body as a whole' },
            'junk',
            {},
          ],
        },
        { status: 400 },
      ),
    );
    expect(error).toMatchObject({
      code: 'validation_failed',
      errors: [
        { path: 'limit', message: 'too big' },
        { path: '["a",0]', message: 'bad' },
        { path: '{"pointer":"/settings/allowedOrigins/0"}', message: 'not an origin' },
        { path: '7', message: '{"en":"wrong"}' },
        { path: '', message: 'the body as a whole' },
      ],
    });
    expect((error as CspwatchApiError).errors).toHaveLength(5);
    const limited = await failWith(() =>
      problemResponse(429, 'rate_limited', { headers: { 'retry-after': '7' } }),
    );
    expect(limited).toMatchObject({ retryAfterMs: 7000 });
  });

  it('gives a useful error for a non-JSON or differently shaped body', async () => {
    const html = await failWith(
      () =>
        new HttpResponse('<h1>Bad Gateway</h1>', {
          status: 502,
          statusText: 'Bad Gateway',
          headers: { 'x-request-id': 'req_x' },
        }),
    );
    expect(html).toBeInstanceOf(CspwatchServerError);
    expect(html).toMatchObject({
      status: 502,
      code: 'server_error',
      title: 'Bad Gateway',
      rawBody: '<h1>Bad Gateway</h1>',
      requestId: 'req_x',
    });
    const odd = await failWith(() =>
      HttpResponse.json({ error: { message: 'nope' }, code: 42 }, { status: 404 }),
    );
    expect(odd).toMatchObject({
      status: 404,
      code: 'not_found',
      rawBody: '{"error":{"message":"nope"},"code":42}',
    });
    const partly = await failWith(() =>
      HttpResponse.json(
        { code: 'feature_not_in_plan', title: 42, detail: 'Upgrade' },
        { status: 403 },
      ),
    );
    expect(partly).toMatchObject({
      code: 'feature_not_in_plan',
      detail: 'Upgrade',
      title: 'Forbidden',
    });
    const empty = await failWith(() => new HttpResponse(null, { status: 403 }));
    expect(empty).toMatchObject({ status: 403, code: 'forbidden', rawBody: '', detail: undefined });
    expect((empty as Error).message).toContain('403');
  });

  it('never puts the token in messages or bodies, even when the server echoes it', async () => {
    const error = await failWith(() =>
      problemResponse(401, 'invalid_token', { detail: `Token ${SECRET_TOKEN} is not valid` }),
    );
    const apiError = error as CspwatchApiError;
    expect(apiError.message).not.toContain(SECRET_TOKEN);
    expect(apiError.detail).toBe('Token [redacted] is not valid');
    expect(apiError.rawBody).not.toContain(SECRET_TOKEN);
    expect(JSON.stringify({ ...apiError, message: apiError.message })).not.toContain(SECRET_TOKEN);
  });
});

describe('API errors with a short token', () => {
  it('keep the code, title and body whole, and redact only where the token stands alone', async () => {
    server.use(
      http.get(LIST_URL, () =>
        HttpResponse.json(
          {
            type: 'urn:cspwatch:problem:validation_failed',
            title: 'Validation failed',
            status: 400,
            detail: 'token t is not accepted here',
            code: 'validation_failed',
            errors: [{ path: 'limit', message: 'must be at most 200' }],
          },
          { status: 400, headers: { 'x-request-id': 'req_t', 'x-echo': 'Bearer t' } },
        ),
      ),
    );
    const shortToken = createCspwatchClient({ baseUrl: BASE_URL, token: 't', maxRetries: 0 });
    const error = (await shortToken.apiKeys
      .list('ws_1')
      .firstPage()
      .catch((e: unknown) => e)) as CspwatchApiError;
    expect(error).toMatchObject({
      code: 'validation_failed',
      title: 'Validation failed',
      type: 'urn:cspwatch:problem:validation_failed',
      detail: 'token [redacted] is not accepted here',
      errors: [{ path: 'limit', message: 'must be at most 200' }],
      requestId: 'req_t',
    });
    expect(error.headers.get('x-echo')).toBe('Bearer [redacted]');
    expect(error.rawBody).toContain('"code":"validation_failed"');
    expect(error.rawBody).toContain('"detail":"token [redacted] is not accepted here"');
    expect(error.message).toContain('(code validation_failed, request id req_t)');
  });
});

describe('isCspwatchError', () => {
  it('recognises errors by a Symbol.for marker, also from another copy of the package', () => {
    const fromAnotherCopy = Object.assign(new Error('x'), {
      [Symbol.for('@cspwatch/client.CspwatchError')]: true,
    });
    expect(
      isCspwatchError(new CspwatchInputError([{ path: 'a', code: 'invalid', message: 'b' }])),
    ).toBe(true);
    expect(isCspwatchError(fromAnotherCopy)).toBe(true);
    // `instanceof` reads the same marker, so both tests agree on an error of another copy.
    expect(fromAnotherCopy).toBeInstanceOf(CspwatchError);
    expect(fromAnotherCopy).not.toBeInstanceOf(CspwatchApiError);
    expect(isCspwatchError(new Error('x'))).toBe(false);
    expect(isCspwatchError(null)).toBe(false);
    expect(isCspwatchError('CspwatchError')).toBe(false);
  });

  it('keeps a 422 a CspwatchConflictError, as it was before it had its own class', () => {
    const details = { status: 422, code: 'x', title: 't', detail: undefined, type: undefined };
    const error = new CspwatchUnprocessableEntityError({
      ...details,
      errors: [],
      requestId: undefined,
      headers: new Headers(),
      rawBody: '',
      retryAfterMs: undefined,
    });
    expect(error).toBeInstanceOf(CspwatchConflictError);
    expect(new CspwatchConflictError(error)).not.toBeInstanceOf(CspwatchUnprocessableEntityError);
  });

  it('gives each class a literal name and keeps the cause', () => {
    const cause = new Error('root');
    const error = new CspwatchError('m', 'timeout', { cause });
    expect(error.cause).toBe(cause);
    expect(new CspwatchInputError([]).name).toBe('CspwatchInputError');
  });
});
