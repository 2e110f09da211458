import { delay, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BASE_URL,
  makeApiKey,
  makeWebsite,
  problemResponse,
  SECRET_TOKEN,
} from '../../test/fixtures';
import { createCspwatchClient } from '../create-client';
import { CspwatchServerError } from '../errors/api-error';
import { CspwatchInputError } from '../errors/input-error';
import { CspwatchTimeoutError } from '../errors/timeout-error';
import type { CspwatchClientOptions } from '../options/client-options';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const LIST_URL = `${BASE_URL}/v1/workspaces/ws_1/api-keys`;
const CREATE_URL = `${BASE_URL}/v1/workspaces/ws_1/websites`;
const input = { name: 'Shop', url: 'https://shop.example.com' };
const client = (options: Partial<CspwatchClientOptions> = {}) =>
  createCspwatchClient({ baseUrl: BASE_URL, token: SECRET_TOKEN, random: () => 0, ...options });

function serve(url: string, responses: Array<() => Response | Promise<Response>>) {
  const state = { count: 0, requests: [] as Request[] };
  const answer = ({ request }: { request: Request }) => {
    state.requests.push(request);
    return responses[Math.min(state.count++, responses.length - 1)]!();
  };
  server.use(url === CREATE_URL ? http.post(url, answer) : http.get(url, answer));
  return state;
}

const page = (requestId: string, nextCursor?: string) =>
  HttpResponse.json(
    {
      data: [makeApiKey(1)],
      pagination: { nextCursor, hasMore: nextCursor !== undefined, total: 2 },
    },
    { headers: { 'x-request-id': requestId } },
  );

describe('per-call options', () => {
  it('timeout of one call overrides the client’s', async () => {
    const state = serve(CREATE_URL, [
      async () => {
        await delay(500);
        return HttpResponse.json(makeWebsite(), { status: 201 });
      },
    ]);
    const error = await client({ timeout: 10_000 })
      .websites.create('ws_1', input, { timeout: 30 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchTimeoutError);
    expect(error).toMatchObject({ scope: 'attempt', timeoutMs: 30 });
    expect(state.count).toBe(1);
  });

  it('maxRetries of one call overrides the client’s, for every page of a list', async () => {
    let state = serve(LIST_URL, [() => problemResponse(503, 'server_error')]);
    const patient = client({ maxRetries: 3 });
    await expect(patient.apiKeys.list('ws_1', { maxRetries: 0 }).firstPage()).rejects.toThrow(
      CspwatchServerError,
    );
    expect(state.count).toBe(1);
    server.resetHandlers();
    state = serve(LIST_URL, [() => problemResponse(503, 'server_error')]);
    await expect(patient.apiKeys.list('ws_1', { maxRetries: 1 }).toArray()).rejects.toThrow(
      CspwatchServerError,
    );
    expect(state.count).toBe(2);
  });

  it('merges headers over the client’s, and the token stays the client’s', async () => {
    const state = serve(CREATE_URL, [() => HttpResponse.json(makeWebsite(), { status: 201 })]);
    await client({ headers: { 'x-tenant': 'acme', 'x-team': 'web' } }).websites.create(
      'ws_1',
      input,
      { headers: { 'x-tenant': 'globex', 'idempotency-key': 'k1' } },
    );
    const sent = state.requests[0]!.headers;
    expect(sent.get('x-tenant')).toBe('globex');
    expect(sent.get('x-team')).toBe('web');
    expect(sent.get('idempotency-key')).toBe('k1');
    expect(sent.get('authorization')).toBe(`Bearer ${SECRET_TOKEN}`);
  });

  it('validates the call options like the client options, sending nothing', async () => {
    const state = serve(CREATE_URL, [() => HttpResponse.json(makeWebsite(), { status: 201 })]);
    const error = await client()
      .websites.create('ws_1', input, {
        timeout: 0,
        maxRetries: 11,
        headers: { Authorization: 'Bearer other', 'bad name': 'x', 'x-ok': 'a\nb' },
        signal: 'soon' as never,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchInputError);
    expect((error as CspwatchInputError).fields.map((field) => field.path)).toEqual([
      'timeout',
      'maxRetries',
      'headers.Authorization',
      'headers.bad name',
      'headers.x-ok',
      'signal',
    ]);
    expect(() => client().apiKeys.list('ws_1', { timeout: 1.5, headers: [] as never })).toThrow(
      CspwatchInputError,
    );
    expect(state.count).toBe(0);
  });

  it('a call’s signal aborts that call only', async () => {
    serve(CREATE_URL, [
      async () => {
        await delay(200);
        return HttpResponse.json(makeWebsite(), { status: 201 });
      },
    ]);
    const shared = client();
    const reason = new Error('user left');
    const aborted = shared.websites.create('ws_1', input, { signal: AbortSignal.abort(reason) });
    await expect(aborted).rejects.toBe(reason);
    await expect(shared.websites.create('ws_1', input)).resolves.toMatchObject({ id: 'web_1' });
  });
});

describe('withResponse', () => {
  it('gives the value with status, headers, request id and attempts; awaiting gives the value', async () => {
    serve(CREATE_URL, [
      () => problemResponse(429, 'rate_limited', { headers: { 'retry-after': '0' } }),
      () =>
        HttpResponse.json(makeWebsite(), {
          status: 201,
          headers: { 'x-request-id': 'req_created', 'x-echo': `Bearer ${SECRET_TOKEN}` },
        }),
    ]);
    const { data, response } = await client().websites.create('ws_1', input).withResponse();
    expect(data).toEqual(makeWebsite());
    expect(response).toMatchObject({ status: 201, requestId: 'req_created', attempts: 2 });
    expect(response.headers.get('x-echo')).toBe('Bearer [redacted]');
    server.resetHandlers();
    serve(CREATE_URL, [() => HttpResponse.json(makeWebsite(), { status: 201 })]);
    const website = await client().websites.create('ws_1', input);
    expect(website).toEqual(makeWebsite());
  });

  it('rejects both ways with the same error', async () => {
    serve(CREATE_URL, [() => problemResponse(403, 'website_limit_reached')]);
    const call = client().websites.create('ws_1', input);
    const [plain, withResponse] = await Promise.all([
      call.catch((e: unknown) => e),
      call.withResponse().catch((e: unknown) => e),
    ]);
    expect(plain).toBe(withResponse);
    expect(plain).toMatchObject({ code: 'website_limit_reached' });
  });

  it('gives every page its request id', async () => {
    server.use(
      http.get(LIST_URL, ({ request }) =>
        new URL(request.url).searchParams.get('cursor') === 'c2'
          ? page('req_page_2')
          : page('req_page_1', 'c2'),
      ),
    );
    const list = client().apiKeys.list('ws_1');
    expect((await list.firstPage()).requestId).toBe('req_page_1');
    const ids = [];
    for await (const each of list.pages()) ids.push(each.requestId);
    expect(ids).toEqual(['req_page_1', 'req_page_2']);
  });
});
