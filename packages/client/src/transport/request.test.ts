import { delay, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BASE_URL, makeApiKey, problemResponse, SECRET_TOKEN } from '../../test/fixtures';
import { createCspwatchClient } from '../create-client';
import {
  CspwatchAuthenticationError,
  CspwatchRateLimitError,
  CspwatchServerError,
} from '../errors/api-error';
import { CspwatchTimeoutError } from '../errors/timeout-error';
import { CspwatchTokenError } from '../errors/token-error';
import type { CspwatchClientOptions } from '../options/client-options';
import { USER_AGENT } from '../options/client-options';
import type { CspwatchRequestLogEntry } from '../options/debug-log';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

const LIST_URL = `${BASE_URL}/v1/workspaces/ws_1/api-keys`;
const onePage = () =>
  HttpResponse.json({ data: [makeApiKey(1)], pagination: { hasMore: false, total: 1 } });
const client = (options: Partial<CspwatchClientOptions> = {}) =>
  createCspwatchClient({ baseUrl: BASE_URL, token: SECRET_TOKEN, random: () => 0.5, ...options });

/** Serves the given responses in order and counts requests. */
function sequence(responses: Array<() => Response | Promise<Response>>) {
  const state = { count: 0, requests: [] as Request[] };
  server.use(
    http.get(LIST_URL, ({ request }) => {
      state.requests.push(request);
      const next = responses[Math.min(state.count++, responses.length - 1)]!;
      return next();
    }),
  );
  return state;
}

describe('retries', () => {
  it('waits for Retry-After (seconds) before retrying a 429', async () => {
    vi.useFakeTimers();
    const state = sequence([
      () => problemResponse(429, 'rate_limited', { headers: { 'retry-after': '5' } }),
      onePage,
    ]);
    const result = client().apiKeys.list('ws_1').firstPage();
    await vi.advanceTimersByTimeAsync(4_900);
    expect(state.count).toBe(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(state.count).toBe(2);
    await expect(result).resolves.toMatchObject({ pagination: { total: 1 } });
  });

  it('honours Retry-After given as an HTTP date', async () => {
    vi.useFakeTimers({ now: Date.UTC(2025, 0, 1, 12, 0, 0) });
    const state = sequence([
      () =>
        problemResponse(503, 'server_error', {
          headers: { 'retry-after': new Date(Date.UTC(2025, 0, 1, 12, 0, 30)).toUTCString() },
        }),
      onePage,
    ]);
    const result = client().apiKeys.list('ws_1').firstPage();
    await vi.advanceTimersByTimeAsync(29_000);
    expect(state.count).toBe(1);
    await vi.advanceTimersByTimeAsync(1_100);
    await expect(result).resolves.toBeDefined();
    expect(state.count).toBe(2);
  });

  it('throws the rate-limit error at once when Retry-After exceeds the cap', async () => {
    const state = sequence([
      () => problemResponse(429, 'rate_limited', { headers: { 'retry-after': '3600' } }),
    ]);
    // A budget long enough to wait, so only the cap can make it throw at once.
    const patient = client({ totalTimeout: 7_200_000 });
    const error = await patient.apiKeys
      .list('ws_1')
      .firstPage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchRateLimitError);
    expect((error as CspwatchRateLimitError).retryAfterMs).toBe(3_600_000);
    expect(state.count).toBe(1);
  });

  it('uses exponential backoff with jitter from the injected random source', async () => {
    vi.useFakeTimers();
    const state = sequence([() => problemResponse(500, 'server_error')]);
    const result = client({ random: () => 0.5 })
      .apiKeys.list('ws_1')
      .firstPage()
      .catch((e: unknown) => e);
    // retry 1 waits 0.5 * 500 ms, retry 2 waits 0.5 * 1000 ms.
    await vi.advanceTimersByTimeAsync(240);
    expect(state.count).toBe(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(state.count).toBe(2);
    await vi.advanceTimersByTimeAsync(480);
    expect(state.count).toBe(2);
    await vi.advanceTimersByTimeAsync(40);
    expect(state.count).toBe(3);
    expect(await result).toBeInstanceOf(CspwatchServerError);
  });

  it('retries 408, 429 and 5xx for GET up to maxRetries, and not at all with 0', async () => {
    for (const status of [408, 429, 500, 502, 503, 504]) {
      const state = sequence([() => problemResponse(status, 'x')]);
      await expect(
        client({ random: () => 0 })
          .apiKeys.list('ws_1')
          .firstPage(),
      ).rejects.toMatchObject({ status });
      expect(state.count).toBe(3);
      server.resetHandlers();
    }
    const state = sequence([() => problemResponse(503, 'server_error')]);
    await expect(client({ maxRetries: 0 }).apiKeys.list('ws_1').firstPage()).rejects.toThrow(
      CspwatchServerError,
    );
    expect(state.count).toBe(1);
  });

  it('does not retry 400, 403, 404 or 501', async () => {
    for (const status of [400, 403, 404, 501]) {
      const state = sequence([() => problemResponse(status, 'x')]);
      await expect(client().apiKeys.list('ws_1').firstPage()).rejects.toMatchObject({ status });
      expect(state.count).toBe(1);
      server.resetHandlers();
    }
  });

  it('starts no wait that would pass totalTimeout: the answer is thrown at once', async () => {
    const state = sequence([
      () => problemResponse(503, 'server_error', { headers: { 'retry-after': '30' } }),
    ]);
    const error = await client({ totalTimeout: 5_000 })
      .apiKeys.list('ws_1')
      .firstPage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchServerError);
    expect(state.count).toBe(1);

    vi.useFakeTimers();
    server.resetHandlers();
    const again = sequence([() => problemResponse(503, 'server_error')]);
    const delays: number[] = [];
    const result = client({
      totalTimeout: 1_000,
      random: () => 0.99,
      hooks: { beforeRetry: ({ delayMs }) => void delays.push(delayMs) },
    })
      .apiKeys.list('ws_1')
      .firstPage()
      .catch((e: unknown) => e);
    // The first backoff (495 ms) fits the budget; the second (990 ms) would pass it.
    await vi.advanceTimersByTimeAsync(500);
    expect(await result).toBeInstanceOf(CspwatchServerError);
    expect(again.count).toBe(2);
    expect(delays).toEqual([495]);
  });

  it('tells beforeRetry the wait it then takes, for a failure without an answer', async () => {
    vi.useFakeTimers();
    sequence([onePage]);
    let calls = 0;
    const token = async () => {
      if (++calls === 1) throw new Error('identity provider down');
      return 'tok_ok';
    };
    const delays: number[] = [];
    const result = client({
      token,
      hooks: { beforeRetry: ({ delayMs }) => void delays.push(delayMs) },
    })
      .apiKeys.list('ws_1')
      .firstPage();
    await vi.advanceTimersByTimeAsync(240);
    expect(delays).toEqual([250]);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(calls).toBe(2);
    await expect(result).resolves.toMatchObject({ pagination: { total: 1 } });
  });

  it('abort stops a backoff wait at once', async () => {
    vi.useFakeTimers();
    const state = sequence([
      () => problemResponse(429, 'rate_limited', { headers: { 'retry-after': '30' } }),
    ]);
    const controller = new AbortController();
    const result = client()
      .apiKeys.list('ws_1', { signal: controller.signal })
      .firstPage()
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_000);
    controller.abort();
    expect(await result).toMatchObject({ name: 'AbortError' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(state.count).toBe(1);
  });

  it('abort stops the request in flight and the iteration', async () => {
    const controller = new AbortController();
    let count = 0;
    server.use(
      http.get(LIST_URL, async () => {
        count++;
        if (count === 2) {
          controller.abort(new Error('user cancelled'));
          await delay('infinite');
        }
        return HttpResponse.json({
          data: [makeApiKey(count)],
          pagination: { nextCursor: `c${count}`, hasMore: true, total: 10 },
        });
      }),
    );
    const ids: string[] = [];
    const error = await (async () => {
      for await (const key of client().apiKeys.list('ws_1', { signal: controller.signal }))
        ids.push(key.id);
    })().catch((e: unknown) => e);
    expect(error).toEqual(new Error('user cancelled'));
    expect(ids).toEqual(['key_1']);
    expect(count).toBe(2);
  });

  it('times out one attempt, retries it, and reports a timeout error', async () => {
    let count = 0;
    server.use(
      http.get(LIST_URL, async () => {
        count++;
        await delay(500);
        return onePage();
      }),
    );
    const error = await client({ timeout: 30, maxRetries: 1, random: () => 0 })
      .apiKeys.list('ws_1')
      .firstPage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchTimeoutError);
    expect(error).toMatchObject({ code: 'timeout', scope: 'attempt', timeoutMs: 30 });
    expect(count).toBe(2);
  });

  it('stops at the total time budget', async () => {
    server.use(
      http.get(LIST_URL, async () => {
        await delay(500);
        return onePage();
      }),
    );
    const error = await client({ timeout: 10_000, totalTimeout: 50 })
      .apiKeys.list('ws_1')
      .firstPage()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'CspwatchTimeoutError', scope: 'total', timeoutMs: 50 });
  });
});

describe('token', () => {
  it('asks the token function before every attempt and forces a refresh once after a 401', async () => {
    const state = sequence([() => problemResponse(401, 'invalid_token'), onePage]);
    const calls: boolean[] = [];
    const token = vi.fn(async ({ forceRefresh }: { forceRefresh: boolean }) => {
      calls.push(forceRefresh);
      return forceRefresh ? 'fresh_token' : 'stale_token';
    });
    await client({ token }).apiKeys.list('ws_1').firstPage();
    expect(calls).toEqual([false, true]);
    expect(state.requests.map((r) => r.headers.get('authorization'))).toEqual([
      'Bearer stale_token',
      'Bearer fresh_token',
    ]);
  });

  it('gives up after one refresh, and does not refresh a fixed string token', async () => {
    let state = sequence([() => problemResponse(401, 'invalid_token')]);
    await expect(
      client({ token: async () => 'still_bad' })
        .apiKeys.list('ws_1')
        .firstPage(),
    ).rejects.toThrow(CspwatchAuthenticationError);
    expect(state.count).toBe(2);
    server.resetHandlers();
    state = sequence([() => problemResponse(401, 'invalid_token')]);
    await expect(client().apiKeys.list('ws_1').firstPage()).rejects.toThrow(
      CspwatchAuthenticationError,
    );
    expect(state.count).toBe(1);
  });

  it('replays after a refresh without counting it: the backoff after it starts from the base', async () => {
    const state = sequence([
      () => problemResponse(401, 'invalid_token'),
      () => problemResponse(503, 'server_error'),
      onePage,
    ]);
    const delays: number[] = [];
    await client({
      token: async () => 'tok',
      maxRetries: 1,
      hooks: { beforeRetry: ({ delayMs }) => void delays.push(delayMs) },
    })
      .apiKeys.list('ws_1')
      .firstPage();
    // The replay is at once and not announced; the one retry waits 0.5 x 500 ms.
    expect(delays).toEqual([250]);
    expect(state.count).toBe(3);
  });

  it('retries when the token function throws, sending nothing until it succeeds', async () => {
    const state = sequence([onePage]);
    let calls = 0;
    const token = async () => {
      if (++calls === 1) throw new Error('identity provider down');
      return 'tok_ok';
    };
    await client({ token, random: () => 0 })
      .apiKeys.list('ws_1')
      .firstPage();
    expect(calls).toBe(2);
    expect(state.count).toBe(1);
    const failing = client({ token: () => Promise.reject(new Error('down')), random: () => 0 });
    const error = await failing.apiKeys
      .list('ws_1')
      .firstPage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchTokenError);
    expect((error as CspwatchTokenError).cause).toEqual(new Error('down'));
    expect(state.count).toBe(1);
  });

  it('bounds a hanging token function by the total time budget, sending nothing', async () => {
    const state = sequence([onePage]);
    const error = await client({ token: () => new Promise<string>(() => {}), totalTimeout: 50 })
      .apiKeys.list('ws_1')
      .firstPage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchTimeoutError);
    expect(error).toMatchObject({ scope: 'total', timeoutMs: 50 });
    expect(state.count).toBe(0);
  });

  it('refuses a token function that returns an empty or multi-line value', async () => {
    const state = sequence([onePage]);
    for (const bad of ['', 'a\r\nx-evil: 1', 42]) {
      const error = await client({ token: async () => bad as string })
        .apiKeys.list('ws_1')
        .firstPage()
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'token_unavailable' });
    }
    expect(state.count).toBe(0);
  });
});

describe('headers and logging', () => {
  it('sends the User-Agent, accept and custom headers', async () => {
    const state = sequence([onePage]);
    await client({ headers: { 'x-tenant': 'acme' } })
      .apiKeys.list('ws_1')
      .firstPage();
    const headers = state.requests[0]!.headers;
    expect(headers.get('user-agent')).toBe(USER_AGENT);
    expect(USER_AGENT).toMatch(/^cspwatch-sdk-js\/\d+\.\d+\.\d+/);
    expect(headers.get('x-tenant')).toBe('acme');
    expect(headers.get('accept')).toContain('application/json');
  });

  it('logs method, path, status, duration and request id with authorization redacted', async () => {
    sequence([
      () => problemResponse(503, 'server_error'),
      () =>
        HttpResponse.json(
          { data: [], pagination: { hasMore: false, total: 0 } },
          { headers: { 'x-request-id': 'req_ok' } },
        ),
    ]);
    const entries: CspwatchRequestLogEntry[] = [];
    await client({ logger: (entry) => entries.push(entry), random: () => 0 })
      .apiKeys.list('ws_1', { q: 'ci' })
      .firstPage();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      method: 'GET',
      path: '/v1/workspaces/ws_1/api-keys?q=ci',
      status: 503,
      requestId: 'req_503',
      attempt: 1,
      errorCode: 'server_error',
    });
    expect(entries[1]).toMatchObject({
      status: 200,
      requestId: 'req_ok',
      attempt: 2,
      errorCode: undefined,
    });
    expect(entries[0]!.durationMs).toBeGreaterThanOrEqual(0);
    expect(entries[0]!.requestHeaders.authorization).toBe('[redacted]');
    expect(JSON.stringify(entries)).not.toContain(SECRET_TOKEN);
  });

  it('ignores a throwing logger', async () => {
    sequence([onePage]);
    const logger = () => {
      throw new Error('logger broke');
    };
    await expect(client({ logger }).apiKeys.list('ws_1').firstPage()).resolves.toBeDefined();
  });

  it('looks fetch up on every request', async () => {
    const calls: string[] = [];
    const original = globalThis.fetch;
    const c = client({ random: () => 0 });
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      calls.push(input instanceof Request ? input.url : String(input));
      return original(input, init);
    });
    sequence([onePage]);
    await c.apiKeys.list('ws_1').firstPage();
    spy.mockRestore();
    expect(calls).toEqual([`${LIST_URL}`]);
  });
});
