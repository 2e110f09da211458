import { createServer } from 'node:net';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, makeApiKey, makeWebsite } from '../../test/fixtures';
import { createCspwatchClient } from '../create-client';
import { CspwatchConnectionError } from '../errors/connection-error';
import { isCspwatchError } from '../errors/cspwatch-error';
import { CspwatchInputError } from '../errors/input-error';
import { CspwatchPaginationError } from '../errors/pagination-error';
import { resolveOptions } from '../options/resolve-options';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const client = () => createCspwatchClient({ baseUrl: BASE_URL, token: 'tok_1', random: () => 0 });

function optionsError(options: Parameters<typeof resolveOptions>[0]): CspwatchInputError {
  try {
    resolveOptions(options);
  } catch (error) {
    if (error instanceof CspwatchInputError) return error;
  }
  throw new Error('expected the options to be refused');
}

describe('create-website input', () => {
  it('refuses a name of only spaces and a url that is not http: or https:', async () => {
    let sent = 0;
    server.use(
      http.post(`${BASE_URL}/v1/workspaces/ws_1/websites`, () => {
        sent++;
        return HttpResponse.json(makeWebsite(), { status: 201 });
      }),
    );
    const cases: Array<[{ name: string; url: string }, string[]]> = [
      [{ name: '   ', url: 'https://a.example' }, ['name']],
      [{ name: '\t \n', url: 'https://a.example' }, ['name']],
      [{ name: 'ok', url: 'javascript:alert(1)' }, ['url']],
      [{ name: 'ok', url: 'ftp://files.example/site' }, ['url']],
      [{ name: 'ok', url: 'data:text/html,hi' }, ['url']],
      [{ name: ' ', url: 'mailto:a@b.example' }, ['name', 'url']],
    ];
    for (const [input, paths] of cases) {
      const error = await client()
        .websites.create('ws_1', input)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CspwatchInputError);
      expect((error as CspwatchInputError).fields.map((field) => field.path)).toEqual(paths);
    }
    expect(sent).toBe(0);
    for (const url of ['http://a.example', 'HTTPS://A.EXAMPLE/x']) {
      await expect(
        client().websites.create('ws_1', { name: ' Shop ', url }),
      ).resolves.toBeDefined();
    }
    expect(sent).toBe(2);
  });
});

describe('baseUrl', () => {
  it('refuses plain http: to a host that is not loopback, unless explicitly allowed', () => {
    const error = optionsError({ baseUrl: 'http://api.cspwatch.example', token: 't' });
    expect(error.fields).toEqual([
      {
        path: 'baseUrl',
        code: 'invalid',
        message: expect.stringMatching(
          /unencrypted to api\.cspwatch\.example.*dangerouslyAllowInsecureHttp/,
        ),
      },
    ]);
    for (const baseUrl of [
      'http://10.0.0.5:8080',
      'http://128.0.0.1',
      'http://localhost.evil.example',
    ]) {
      expect(optionsError({ baseUrl, token: 't' }).fields[0]?.path).toBe('baseUrl');
    }
    expect(
      resolveOptions({
        baseUrl: 'http://api.internal.example',
        token: 't',
        dangerouslyAllowInsecureHttp: true,
      }).baseUrl,
    ).toBe('http://api.internal.example');
    for (const baseUrl of [
      'http://localhost:4010',
      'http://127.0.0.1',
      'http://127.8.9.10:1',
      'http://[::1]:3000',
      'http://api.localhost',
    ]) {
      expect(() => resolveOptions({ baseUrl, token: 't' })).not.toThrow();
    }
  });

  it('refuses a baseUrl ending in /v1 with a hint', () => {
    for (const baseUrl of ['https://api.cspwatch.example/v1', 'https://api.cspwatch.example/v1/']) {
      const error = optionsError({ baseUrl, token: 't' });
      expect(error.message).toContain('must not end with /v1');
      expect(error.message).toContain('use https://api.cspwatch.example)');
    }
    expect(resolveOptions({ baseUrl: 'https://a.example/api/v10', token: 't' }).baseUrl).toBe(
      'https://a.example/api/v10',
    );
  });

  it('names the host in a connection error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const address = closed.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    await new Promise((resolve) => closed.close(resolve));
    const host = `127.0.0.1:${address.port}`;
    const error = await createCspwatchClient({
      baseUrl: `http://${host}`,
      token: 't',
      maxRetries: 0,
    })
      .apiKeys.list('ws_1')
      .firstPage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchConnectionError);
    expect(error).toMatchObject({ host, requestMayHaveBeenSent: false });
    expect((error as Error).message).toContain(`GET to ${host} failed`);
  });
});

describe('toArray cap', () => {
  const serveKeys = (total: number) => {
    let requests = 0;
    server.use(
      http.get(`${BASE_URL}/v1/workspaces/ws_1/api-keys`, ({ request }) => {
        requests++;
        const offset = Number(new URL(request.url).searchParams.get('cursor') ?? 0);
        const end = Math.min(total, offset + 500);
        const data = [];
        for (let index = offset; index < end; index++) data.push(makeApiKey(index));
        const hasMore = end < total;
        return HttpResponse.json({
          data,
          pagination: { nextCursor: hasMore ? String(end) : null, hasMore, total },
        });
      }),
    );
    return () => requests;
  };

  it('collects up to 10,000 items without a max', async () => {
    serveKeys(10_000);
    await expect(client().apiKeys.list('ws_1').toArray()).resolves.toHaveLength(10_000);
  });

  it('throws past 10,000 items without a max, saying how to lift the cap', async () => {
    const requests = serveKeys(10_001);
    const error = await client()
      .apiKeys.list('ws_1')
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchPaginationError);
    expect(isCspwatchError(error) && error.code).toBe('too_many_items');
    expect((error as Error).message).toMatch(
      /more than 10000 items.*toArray\(\{ max: Infinity \}\)/,
    );
    expect(requests()).toBe(21);
    await expect(
      client().apiKeys.list('ws_1').toArray({ max: Number.POSITIVE_INFINITY }),
    ).resolves.toHaveLength(10_001);
    await expect(client().apiKeys.list('ws_1').toArray({ max: 10_001 })).resolves.toHaveLength(
      10_001,
    );
  });
});
