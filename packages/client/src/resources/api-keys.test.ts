import { getEventListeners } from 'node:events';
import fc from 'fast-check';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { budget } from '../../../../test-budget';
import {
  BASE_URL,
  encodeCursor,
  makeApiKey,
  pagedKeysHandler,
  problemResponse,
  type SeenRequests,
} from '../../test/fixtures';
import { createCspwatchClient } from '../create-client';
import { CspwatchServerError } from '../errors/api-error';
import { isCspwatchError } from '../errors/cspwatch-error';
import { CspwatchInputError } from '../errors/input-error';
import { CspwatchPaginationError } from '../errors/pagination-error';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const LIST_URL = `${BASE_URL}/v1/workspaces/ws_1/api-keys`;
const client = () =>
  createCspwatchClient({ baseUrl: BASE_URL, token: 'tok_1', random: () => 0, maxRetries: 2 });
const seen = (): SeenRequests => ({ urls: [], requests: [] });

describe('apiKeys.list', () => {
  it('yields every key across several pages, in order, following nextCursor', async () => {
    const requests = seen();
    server.use(pagedKeysHandler(7, requests));
    const ids: string[] = [];
    for await (const key of client().apiKeys.list('ws_1', { limit: 3 })) ids.push(key.id);
    expect(ids).toEqual(['key_0', 'key_1', 'key_2', 'key_3', 'key_4', 'key_5', 'key_6']);
    expect(requests.urls).toHaveLength(3);
  });

  it('gives each key once, in order, to next() calls made without waiting', async () => {
    server.use(pagedKeysHandler(5, seen()));
    const iterator = client().apiKeys.list('ws_1', { limit: 2 })[Symbol.asyncIterator]();
    const results = await Promise.all(Array.from({ length: 7 }, () => iterator.next()));
    expect(results.map((result) => (result.done ? 'done' : result.value.id))).toEqual([
      'key_0',
      'key_1',
      'key_2',
      'key_3',
      'key_4',
      'done',
      'done',
    ]);
  });

  it('sends limit, q and the cursor exactly as received on the wire', async () => {
    const requests = seen();
    server.use(pagedKeysHandler(4, requests));
    const keys = await client().apiKeys.list('ws_1', { limit: 2, q: 'ci & deploy' }).toArray();
    expect(keys).toHaveLength(4);
    const [first, second] = requests.urls;
    expect(first?.searchParams.get('limit')).toBe('2');
    expect(first?.searchParams.get('q')).toBe('ci & deploy');
    expect(first?.searchParams.has('cursor')).toBe(false);
    expect(second?.searchParams.get('cursor')).toBe(encodeCursor(2));
    // `+`, `/`, `=` and space are percent-encoded, not left to be misread as a space.
    expect(second?.search).toContain('cursor=c%2B%2F+2%3D%3D');
    expect(requests.requests[0]?.headers.get('authorization')).toBe('Bearer tok_1');
  });

  it('starts from a stored cursor', async () => {
    const requests = seen();
    server.use(pagedKeysHandler(5, requests));
    const ids = (
      await client()
        .apiKeys.list('ws_1', { limit: 2, cursor: encodeCursor(3) })
        .toArray()
    ).map((key) => key.id);
    expect(ids).toEqual(['key_3', 'key_4']);
  });

  it('fetches nothing until iteration starts', async () => {
    const requests = seen();
    server.use(pagedKeysHandler(5, requests));
    const list = client().apiKeys.list('ws_1');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(requests.urls).toHaveLength(0);
    await list.firstPage();
    expect(requests.urls).toHaveLength(1);
  });

  it('fetches no further page after a break at a page boundary, or after return()', async () => {
    const requests = seen();
    server.use(pagedKeysHandler(100, requests));
    let count = 0;
    for await (const _key of client().apiKeys.list('ws_1', { limit: 10 })) {
      if (++count === 10) break;
    }
    expect(requests.urls).toHaveLength(1);
    const iterator = client().apiKeys.list('ws_1', { limit: 10 })[Symbol.asyncIterator]();
    await iterator.next();
    await expect(iterator.return?.()).resolves.toEqual({ done: true, value: undefined });
    await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
    expect(requests.urls).toHaveLength(2);
  });

  it('an abort between pages stops before the next request', async () => {
    const requests = seen();
    server.use(pagedKeysHandler(10, requests));
    const controller = new AbortController();
    const ids: string[] = [];
    const error = await (async () => {
      for await (const key of client().apiKeys.list('ws_1', {
        limit: 2,
        signal: controller.signal,
      })) {
        ids.push(key.id);
        if (ids.length === 2) controller.abort(new Error('enough'));
      }
    })().catch((e: unknown) => e);
    expect(error).toEqual(new Error('enough'));
    expect(ids).toEqual(['key_0', 'key_1']);
    expect(requests.urls).toHaveLength(1);
  });

  it('stops fetching when the loop breaks early', async () => {
    const requests = seen();
    server.use(pagedKeysHandler(100, requests));
    let count = 0;
    for await (const _key of client().apiKeys.list('ws_1', { limit: 10 })) {
      if (++count === 15) break;
    }
    expect(requests.urls).toHaveLength(2);
  });

  it('gives pages with data and pagination including total, and the first page alone', async () => {
    server.use(pagedKeysHandler(5, seen()));
    const list = client().apiKeys.list('ws_1', { limit: 2 });
    const pages = [];
    for await (const page of list.pages()) pages.push(page);
    expect(pages.map((page) => page.data.length)).toEqual([2, 2, 1]);
    expect(pages.every((page) => page.pagination.total === 5)).toBe(true);
    expect(pages.at(-1)?.pagination.hasMore).toBe(false);
    const first = await list.firstPage();
    expect(first.data.map((key) => key.id)).toEqual(['key_0', 'key_1']);
    expect(first.pagination).toEqual({ nextCursor: encodeCursor(2), hasMore: true, total: 5 });
  });

  it('collects at most `max` items and stops fetching there', async () => {
    const requests = seen();
    server.use(pagedKeysHandler(100, requests));
    const keys = await client().apiKeys.list('ws_1', { limit: 10 }).toArray({ max: 25 });
    expect(keys).toHaveLength(25);
    expect(requests.urls).toHaveLength(3);
    await expect(client().apiKeys.list('ws_1').toArray({ max: 1.5 })).rejects.toThrow(
      CspwatchInputError,
    );
    const none = await client()
      .apiKeys.list('ws_1', { limit: 10 })
      .toArray(null as never);
    expect(none).toHaveLength(100);
  });

  it('goes on past an empty page while hasMore and nextCursor are set', async () => {
    const pages = [
      { data: [makeApiKey(1)], pagination: { nextCursor: 'a', hasMore: true, total: 2 } },
      { data: [], pagination: { nextCursor: 'b', hasMore: true, total: 2 } },
      { data: [makeApiKey(2)], pagination: { hasMore: false, total: 2 } },
    ];
    let index = 0;
    server.use(http.get(LIST_URL, () => HttpResponse.json(pages[index++])));
    const ids = (await client().apiKeys.list('ws_1').toArray()).map((key) => key.id);
    expect(ids).toEqual(['key_1', 'key_2']);
  });

  it('stops with a pagination error when the server repeats a cursor', async () => {
    const cursors = ['a', 'b', 'a'];
    let index = 0;
    server.use(
      http.get(LIST_URL, () =>
        HttpResponse.json({
          data: [makeApiKey(index)],
          pagination: { nextCursor: cursors[index++], hasMore: true, total: 9 },
        }),
      ),
    );
    const error = await client()
      .apiKeys.list('ws_1')
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchPaginationError);
    expect((error as CspwatchPaginationError).repeatedCursor).toBe('a');
    expect(index).toBe(3);
  });

  it('stops a longer cycle (A -> B -> C -> A) within twice its length in extra pages', async () => {
    const next: Record<string, string> = { '': 'A', A: 'B', B: 'C', C: 'A' };
    let requests = 0;
    server.use(
      http.get(LIST_URL, ({ request }) => {
        const cursor = new URL(request.url).searchParams.get('cursor') ?? '';
        return HttpResponse.json({
          data: [makeApiKey(requests++)],
          pagination: { nextCursor: next[cursor], hasMore: true, total: 99 },
        });
      }),
    );
    const error = await client()
      .apiKeys.list('ws_1')
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchPaginationError);
    expect(error).toMatchObject({ code: 'repeated_cursor', failedDuringIteration: true });
    expect(['A', 'B', 'C']).toContain((error as CspwatchPaginationError).repeatedCursor);
    // The first repeat comes with the 4th page; at most 2 x 3 more pages are fetched.
    expect(requests).toBeGreaterThanOrEqual(4);
    expect(requests).toBeLessThanOrEqual(4 + 2 * 3);
  });

  it('shows only a short prefix of a long repeated cursor in the message', async () => {
    const long = `z${'x'.repeat(3000)}`;
    server.use(
      http.get(LIST_URL, () =>
        HttpResponse.json({
          data: [],
          pagination: { nextCursor: long, hasMore: true, total: 0 },
        }),
      ),
    );
    const error = (await client()
      .apiKeys.list('ws_1')
      .toArray()
      .catch((e: unknown) => e)) as CspwatchPaginationError;
    expect(error.code).toBe('repeated_cursor');
    expect(error.repeatedCursor).toBe(long);
    expect(error.message).toContain(`${long.slice(0, 16)}…`);
    expect(error.message.length).toBeLessThan(200);
  });

  it('does not flag 5,000 distinct pages as a loop', { timeout: budget(30_000) }, async () => {
    let requests = 0;
    server.use(
      http.get(LIST_URL, ({ request }) => {
        const cursor = new URL(request.url).searchParams.get('cursor');
        const offset = cursor === null ? 0 : Number(cursor.slice(1));
        const hasMore = offset + 1 < 5000;
        requests += 1;
        return HttpResponse.json({
          data: [makeApiKey(offset)],
          pagination: { nextCursor: hasMore ? `p${offset + 1}` : null, hasMore, total: 5000 },
        });
      }),
    );
    let count = 0;
    let last = '';
    for await (const page of client().apiKeys.list('ws_1', { limit: 1 }).pages()) {
      count += page.data.length;
      last = page.data[0]?.id ?? last;
    }
    expect(count).toBe(5000);
    expect(last).toBe('key_4999');
    expect(requests).toBe(5000);
  });

  it('throws missing_cursor when the server claims more pages but sends no cursor', async () => {
    for (const nextCursor of [undefined, null, '']) {
      let requests = 0;
      server.use(
        http.get(LIST_URL, () => {
          requests += 1;
          return HttpResponse.json({
            data: [makeApiKey(requests)],
            pagination: {
              ...(nextCursor === undefined ? {} : { nextCursor }),
              hasMore: true,
              total: 5,
            },
          });
        }),
      );
      const ids: string[] = [];
      const error = await (async () => {
        for await (const key of client().apiKeys.list('ws_1', { cursor: 'resume-here' }))
          ids.push(key.id);
      })().catch((e: unknown) => e);
      // The page that came is still yielded; then iteration stops loudly instead of truncating.
      expect(ids).toEqual(['key_1']);
      expect(requests).toBe(1);
      expect(error).toBeInstanceOf(CspwatchPaginationError);
      expect(error).toMatchObject({
        code: 'missing_cursor',
        repeatedCursor: undefined,
        cursor: 'resume-here',
        failedDuringIteration: true,
      });
      expect((error as Error).message).toMatch(/hasMore: true.*no nextCursor/);
    }
  });

  it('ends normally when hasMore is false, whatever the cursor', async () => {
    for (const nextCursor of [null, undefined, '', 'stale-cursor']) {
      let requests = 0;
      server.use(
        http.get(LIST_URL, () => {
          requests += 1;
          return HttpResponse.json({
            data: [makeApiKey(requests)],
            pagination: {
              ...(nextCursor === undefined ? {} : { nextCursor }),
              hasMore: false,
              total: 1,
            },
          });
        }),
      );
      const keys = await client().apiKeys.list('ws_1').toArray();
      expect(keys.map((key) => key.id)).toEqual(['key_1']);
      expect(requests).toBe(1);
    }
  });

  it('leaves nothing behind on a long-lived caller signal, page after page', async () => {
    server.use(pagedKeysHandler(40, seen()));
    const controller = new AbortController();
    const any = vi.spyOn(AbortSignal, 'any');
    try {
      let pages = 0;
      const list = client().apiKeys.list('ws_1', { limit: 1, signal: controller.signal });
      for await (const _page of list.pages()) {
        pages += 1;
        // One listener at most while a request is in flight, none between pages.
        expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      }
      expect(pages).toBe(40);
      // Combining the caller's signal (AbortSignal.any) would keep a reference to every
      // combined signal on it for as long as it lives.
      const combinedCallerSignal = any.mock.calls.some(([signals]) =>
        [...signals].includes(controller.signal),
      );
      expect(combinedCallerSignal).toBe(false);
    } finally {
      any.mockRestore();
    }
  });

  it('retries a failing page on its own and carries the failed cursor when it gives up', async () => {
    let failures = 0;
    const requests = seen();
    const pages = pagedKeysHandler(6, requests);
    server.use(
      http.get(LIST_URL, ({ request }) => {
        const cursor = new URL(request.url).searchParams.get('cursor');
        if (cursor === encodeCursor(2) && failures++ < 1)
          return problemResponse(503, 'server_error');
        if (cursor === encodeCursor(4)) return problemResponse(500, 'server_error');
        return undefined; // falls through to the paging handler
      }),
      pages,
    );
    const ids: string[] = [];
    const error = await (async () => {
      for await (const key of client().apiKeys.list('ws_1', { limit: 2 })) ids.push(key.id);
    })().catch((e: unknown) => e);
    expect(ids).toEqual(['key_0', 'key_1', 'key_2', 'key_3']);
    expect(error).toBeInstanceOf(CspwatchServerError);
    expect(isCspwatchError(error) && error.cursor).toBe(encodeCursor(4));
    expect(isCspwatchError(error) && error.failedDuringIteration).toBe(true);
    // Resuming from the carried cursor continues where it failed.
    server.resetHandlers(pagedKeysHandler(6, seen()));
    const rest = await client()
      .apiKeys.list('ws_1', { limit: 2, cursor: (error as CspwatchServerError).cursor! })
      .toArray();
    expect(rest.map((key) => key.id)).toEqual(['key_4', 'key_5']);
  });

  it('refuses bad input before sending anything, naming each field', async () => {
    const requests = seen();
    server.use(pagedKeysHandler(5, requests));
    const bad = [
      () => client().apiKeys.list('', { limit: 0, q: 'x'.repeat(256) }),
      () => client().apiKeys.list('..'),
      () => client().apiKeys.list('.'),
      () => client().apiKeys.list('ws_1', null as never),
      () => client().apiKeys.list('ws_1', 'limit=5' as never),
      () => client().apiKeys.list('ws_1', { limit: 201 }),
      () => client().apiKeys.list('ws_1', { limit: 2.5 }),
      () => client().apiKeys.list('ws_1', { cursor: '' }),
      () => client().apiKeys.list('ws_\uD800'),
      () => client().apiKeys.list('ws_1', { q: 'a\uDC00b' }),
    ];
    for (const call of bad) expect(call).toThrow(CspwatchInputError);
    try {
      client().apiKeys.list('', { limit: 0, q: 'x'.repeat(256) });
    } catch (error) {
      expect((error as CspwatchInputError).fields.map((f) => f.path)).toEqual([
        'workspaceId',
        'limit',
        'q',
      ]);
      expect((error as CspwatchInputError).code).toBe('invalid_input');
    }
    expect(requests.urls).toHaveLength(0);
  });

  it('accepts the boundaries of limit and q', async () => {
    server.use(pagedKeysHandler(1, seen()));
    await expect(
      client()
        .apiKeys.list('ws_1', { limit: 1, q: 'x'.repeat(255) })
        .toArray(),
    ).resolves.toHaveLength(1);
    await expect(
      client().apiKeys.list('ws_1', { limit: 200, q: '' }).toArray(),
    ).resolves.toHaveLength(1);
  });

  it('encodes percent-encoded dots so they cannot act as a dot segment', async () => {
    const requests = seen();
    server.use(pagedKeysHandler(1, requests, '%252e%252E'));
    await client().apiKeys.list('%2e%2E').toArray();
    expect(requests.urls[0]?.pathname).toBe('/v1/workspaces/%252e%252E/api-keys');
  });

  it('encodes the workspace id as one path segment', async () => {
    const requests = seen();
    server.use(pagedKeysHandler(1, requests, 'a%2F..%2Fb%3Fx%3D1'));
    await client().apiKeys.list('a/../b?x=1').toArray();
    expect(requests.urls[0]?.pathname).toBe('/v1/workspaces/a%2F..%2Fb%3Fx%3D1/api-keys');
    expect(requests.urls[0]?.search).toBe('');
  });
});

describe('apiKeys.list path and query encoding (property)', () => {
  const emptyPage = () =>
    new Response(JSON.stringify({ data: [], pagination: { hasMore: false, total: 0 } }), {
      headers: { 'content-type': 'application/json' },
    });
  const capturingClient = (urls: string[]) =>
    createCspwatchClient({
      baseUrl: `${BASE_URL}/base`,
      token: 'tok_1',
      fetch: async (input) => {
        urls.push(input instanceof Request ? input.url : String(input));
        return emptyPage();
      },
    });

  it('keeps any workspace id inside one path segment, or refuses it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: 'binary', minLength: 1 }),
          fc.string({ unit: 'grapheme-composite', minLength: 1 }),
          fc.constantFrom('.', '..', '%2e%2E', '../x', '?a=1', '#f', 'a/b', 'x\uD800', '\uDFFFy'),
        ),
        async (workspaceId) => {
          const urls: string[] = [];
          let list: ReturnType<ReturnType<typeof createCspwatchClient>['apiKeys']['list']>;
          try {
            list = capturingClient(urls).apiKeys.list(workspaceId);
          } catch (error) {
            expect(error).toBeInstanceOf(CspwatchInputError);
            const dotSegment = workspaceId === '.' || workspaceId === '..';
            expect(dotSegment || /\p{Cs}/u.test(workspaceId)).toBe(true);
            return;
          }
          await list.firstPage();
          const url = new URL(urls[0]!);
          const segments = url.pathname.split('/');
          expect(segments).toHaveLength(6);
          expect(segments.slice(0, 4)).toEqual(['', 'base', 'v1', 'workspaces']);
          expect(segments[5]).toBe('api-keys');
          expect(decodeURIComponent(segments[4]!)).toBe(workspaceId);
          expect(url.search).toBe('');
          expect(url.hash).toBe('');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('sends any cursor and q exactly as given', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 300 }),
        fc.string({ maxLength: 255 }),
        async (cursor, q) => {
          const urls: string[] = [];
          await capturingClient(urls).apiKeys.list('ws_1', { cursor, q }).firstPage();
          const params = new URL(urls[0]!).searchParams;
          expect(params.get('cursor')).toBe(cursor);
          expect(params.get('q')).toBe(q);
        },
      ),
      { numRuns: 200 },
    );
  });
});
