import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BASE_URL, makeApiKey, problemResponse, SECRET_TOKEN } from '../../test/fixtures';
import { createCspwatchClient } from '../create-client';
import { CspwatchServerError } from '../errors/api-error';
import { CspwatchInputError } from '../errors/input-error';
import type { CspwatchClientOptions } from '../options/client-options';
import type { CspwatchResponseView } from '../options/hooks';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

const LIST_URL = `${BASE_URL}/v1/workspaces/ws_1/api-keys`;
const client = (options: Partial<CspwatchClientOptions> = {}) =>
  createCspwatchClient({ baseUrl: BASE_URL, token: SECRET_TOKEN, random: () => 0.5, ...options });
const onePage = () =>
  HttpResponse.json(
    { data: [makeApiKey(1)], pagination: { hasMore: false, total: 1 } },
    { headers: { 'x-request-id': 'req_ok', 'x-echo': SECRET_TOKEN } },
  );

function sequence(responses: Array<() => Response>) {
  const state = { count: 0, requests: [] as Request[] };
  server.use(
    http.get(LIST_URL, ({ request }) => {
      state.requests.push(request);
      return responses[Math.min(state.count++, responses.length - 1)]!();
    }),
  );
  return state;
}

describe('hooks', () => {
  it('run in order around each attempt: beforeRequest, afterResponse, beforeRetry', async () => {
    sequence([() => problemResponse(503, 'server_error'), onePage]);
    const events: string[] = [];
    await client({
      hooks: {
        beforeRequest: ({ method, attempt }) => {
          events.push(`beforeRequest ${method} ${attempt}`);
        },
        afterResponse: ({ status, attempt, requestId }) => {
          events.push(`afterResponse ${attempt} ${status} ${requestId}`);
        },
        beforeRetry: ({ attempt, error, delayMs }) => {
          events.push(`beforeRetry ${attempt} ${(error as CspwatchServerError).status} ${delayMs}`);
          expect(error).toBeInstanceOf(CspwatchServerError);
        },
      },
    })
      .apiKeys.list('ws_1')
      .firstPage();
    expect(events).toEqual([
      'beforeRequest GET 1',
      'afterResponse 1 503 req_503',
      // backoff with full jitter: 0.5 x 500 ms before the first retry
      'beforeRetry 1 503 250',
      'beforeRequest GET 2',
      'afterResponse 2 200 req_ok',
    ]);
  });

  it('beforeRequest may add headers, on every attempt, but not authorization', async () => {
    const state = sequence([() => problemResponse(503, 'server_error'), onePage]);
    let attempts = 0;
    await client({
      random: () => 0,
      hooks: {
        beforeRequest: ({ headers }) => {
          headers.append('x-attempt', String(++attempts));
          expect(headers.has('authorization')).toBe(false);
        },
      },
    })
      .apiKeys.list('ws_1')
      .firstPage();
    expect(state.requests.map((r) => r.headers.get('x-attempt'))).toEqual(['1', '2']);
    expect(state.requests[1]!.headers.get('authorization')).toBe(`Bearer ${SECRET_TOKEN}`);

    const sneaky = client({
      hooks: { beforeRequest: ({ headers }) => headers.set('authorization', 'Bearer mine') },
    });
    const error = await sneaky.apiKeys
      .list('ws_1')
      .firstPage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchInputError);
    expect((error as CspwatchInputError).fields[0]?.path).toBe('hooks.beforeRequest');
    expect(state.count).toBe(2);
  });

  it('afterResponse sees a frozen view with the token redacted', async () => {
    sequence([onePage]);
    const views: CspwatchResponseView[] = [];
    await client({ hooks: { afterResponse: (view) => void views.push(view) } })
      .apiKeys.list('ws_1')
      .firstPage();
    const [view] = views;
    expect(view).toMatchObject({ status: 200, requestId: 'req_ok', attempt: 1, method: 'GET' });
    expect(view!.headers.get('x-echo')).toBe('[redacted]');
    expect(Object.isFrozen(view)).toBe(true);
    expect(() => {
      (view as { status: number }).status = 500;
    }).toThrow(TypeError);
    expect(inspect(views, { depth: 5 })).not.toContain(SECRET_TOKEN);
  });

  it('an error thrown by a hook ends the call with that error', async () => {
    const state = sequence([onePage]);
    const broken = new Error('hook broke');
    const error = await client({
      hooks: {
        beforeRequest: () => {
          throw broken;
        },
      },
    })
      .apiKeys.list('ws_1')
      .firstPage()
      .catch((e: unknown) => e);
    expect(error).toBe(broken);
    expect(state.count).toBe(0);
  });

  it('refuses hooks that are not functions', () => {
    expect(() =>
      client({ hooks: { beforeRetry: 'log' as never, afterResponse: 1 as never } }),
    ).toThrow(
      /hooks.beforeRetry: must be a function, got .*; hooks.afterResponse: must be a function/,
    );
  });
});

describe('CSPWATCH_LOG=debug', () => {
  it('logs every attempt to console.debug without the token, even when the server echoes it', async () => {
    vi.stubEnv('CSPWATCH_LOG', 'debug');
    const lines: unknown[][] = [];
    vi.spyOn(console, 'debug').mockImplementation((...args: unknown[]) => void lines.push(args));
    server.use(
      http.get(LIST_URL, ({ request }) =>
        problemResponse(401, 'invalid_token', {
          detail: `Token ${SECRET_TOKEN} is not valid`,
          headers: { 'www-authenticate': request.headers.get('authorization') ?? '' },
        }),
      ),
    );
    const token = async () => SECRET_TOKEN;
    await client({ token, headers: { cookie: 'session=abc' } })
      .apiKeys.list('ws_1', { q: 'ci' })
      .firstPage()
      .catch(() => {});
    expect(lines).toHaveLength(2);
    expect(lines[0]![0]).toBe('[cspwatch] GET /v1/workspaces/ws_1/api-keys?q=ci -> 401');
    expect(lines[1]![1]).toMatchObject({
      attempt: 2,
      errorCode: 'invalid_token',
      requestId: 'req_401',
      requestHeaders: { authorization: '[redacted]', cookie: '[redacted]' },
      responseHeaders: { 'www-authenticate': 'Bearer [redacted]' },
    });
    const printed = inspect(lines, { depth: 10 });
    expect(printed).toContain('[redacted]');
    expect(printed).not.toContain(SECRET_TOKEN);
    expect(printed).not.toContain('session=abc');
  });

  it('stays quiet without the switch, and a given logger wins over it', async () => {
    sequence([onePage]);
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    await client().apiKeys.list('ws_1').firstPage();
    vi.stubEnv('CSPWATCH_LOG', 'debug');
    const entries: unknown[] = [];
    await client({ logger: (entry) => entries.push(entry) })
      .apiKeys.list('ws_1')
      .firstPage();
    expect(debug).not.toHaveBeenCalled();
    expect(entries).toHaveLength(1);
  });
});
