import { createServer, type Server } from 'node:net';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../../../../test-budget';
import { BASE_URL, makeWebsite, problemResponse } from '../../test/fixtures';
import { createCspwatchClient } from '../create-client';
import { CspwatchPermissionError, CspwatchServerError } from '../errors/api-error';
import { CspwatchConnectionError } from '../errors/connection-error';
import { CspwatchInputError } from '../errors/input-error';
import { CspwatchResponseValidationError } from '../errors/response-validation-error';
import { CspwatchTimeoutError } from '../errors/timeout-error';
import type { CspwatchClientOptions } from '../options/client-options';
import type { CspwatchRequestLogEntry } from '../options/debug-log';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const CREATE_URL = `${BASE_URL}/v1/workspaces/ws_1/websites`;
const input = { name: 'Shop', url: 'https://shop.example.com' };
const client = (options: Partial<CspwatchClientOptions> = {}) =>
  createCspwatchClient({ baseUrl: BASE_URL, token: 'tok_1', random: () => 0, ...options });

function respondWith(responses: Array<() => Response | Promise<Response>>) {
  const state = { count: 0, bodies: [] as unknown[] };
  server.use(
    http.post(CREATE_URL, async ({ request }) => {
      state.bodies.push(await request.json());
      return responses[Math.min(state.count++, responses.length - 1)]!();
    }),
  );
  return state;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

describe('websites.create', () => {
  it('posts the input as JSON and returns the typed website with endpointUrl', async () => {
    const state = respondWith([() => HttpResponse.json(makeWebsite(), { status: 201 })]);
    const settings = { dropReferrer: true, allowedOrigins: ['https://shop.example.com'] };
    const website = await client().websites.create('ws_1', { ...input, settings });
    expect(website.endpointUrl).toBe('https://ingest.cspwatch.test/r/web_1');
    expect(state.bodies).toEqual([{ ...input, settings }]);
  });

  it('treats any 2xx as success', async () => {
    for (const status of [200, 201, 202]) {
      respondWith([() => HttpResponse.json(makeWebsite(), { status })]);
      await expect(client().websites.create('ws_1', input)).resolves.toMatchObject({ id: 'web_1' });
    }
  });

  it('keeps unknown fields and accepts an unknown role', async () => {
    respondWith([
      () =>
        HttpResponse.json(
          makeWebsite({
            role: 'owner',
            region: 'eu',
            settings: { ...makeWebsite().settings, sampling: 0.5 },
          }),
          { status: 201 },
        ),
    ]);
    const website = await client().websites.create('ws_1', input);
    expect(website.role).toBe('owner');
    expect(website.region).toBe('eu');
    expect(website.settings.sampling).toBe(0.5);
  });

  it('refuses bad input before sending anything, naming each field', async () => {
    const state = respondWith([() => HttpResponse.json(makeWebsite(), { status: 201 })]);
    const cases: Array<[string, unknown, string[]]> = [
      ['ws_1', { name: '', url: 'https://a.example' }, ['name']],
      ['ws_1', { name: 'x'.repeat(256), url: 'not a url' }, ['name', 'url']],
      ['ws_1', { name: 'ok', url: `https://a.example/${'p'.repeat(2048)}` }, ['url']],
      ['ws_1', { name: 'ok', url: '/relative/path' }, ['url']],
      [
        'ws_1',
        { name: 'ok', url: 'https://a.example', settings: { dropReferrer: 'yes' } },
        ['settings.dropReferrer'],
      ],
      ['..', { url: 'https://a.example' }, ['workspaceId', 'name']],
      ['', null, ['workspaceId', 'input']],
    ];
    for (const [workspaceId, body, paths] of cases) {
      const error = await client()
        .websites.create(workspaceId, body as typeof input)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CspwatchInputError);
      expect((error as CspwatchInputError).fields.map((field) => field.path)).toEqual(paths);
    }
    await expect(client().websites.create('ws_1', input, null as never)).rejects.toMatchObject({
      fields: [{ path: 'options' }],
    });
    await expect(
      client().websites.create('ws_1', {
        name: 'x'.repeat(255),
        url: `https://a.example/${'p'.repeat(2000)}`,
      }),
    ).resolves.toBeDefined();
    expect(state.count).toBe(1);
  });

  it('refuses unknown top-level fields before sending, naming each one', async () => {
    const state = respondWith([() => HttpResponse.json(makeWebsite(), { status: 201 })]);
    const error = await client()
      .websites.create('ws_1', {
        ...input,
        nmae: 'typo',
        endpointEnabled: false,
      } as typeof input)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchInputError);
    expect((error as CspwatchInputError).fields).toEqual([
      { path: 'nmae', code: 'unknown_option', message: expect.stringMatching(/not a known field/) },
      {
        path: 'endpointEnabled',
        code: 'unknown_option',
        message: expect.stringMatching(/not a known field/),
      },
    ]);
    expect((error as Error).message).toMatch(/nmae: .*endpointEnabled: /);
    // Reported together with the other problems of the same call.
    const both = await client()
      .websites.create('ws_1', { name: '', url: 'https://a.example', extra: 1 } as typeof input)
      .catch((e: unknown) => e);
    expect((both as CspwatchInputError).fields.map((field) => field.path).sort()).toEqual([
      'extra',
      'name',
    ]);
    expect(state.count).toBe(0);
  });

  it('refuses unknown settings fields before sending, naming each one (as the service does)', async () => {
    const state = respondWith([() => HttpResponse.json(makeWebsite(), { status: 201 })]);
    const settings = { dropReferrer: true, sampling: 0.5, futureFlag: { on: true } };
    const error = await client()
      .websites.create('ws_1', { ...input, settings })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchInputError);
    expect((error as CspwatchInputError).fields).toEqual([
      {
        path: 'settings.sampling',
        code: 'unknown_option',
        message: expect.stringMatching(/not a known field/),
      },
      {
        path: 'settings.futureFlag',
        code: 'unknown_option',
        message: expect.stringMatching(/not a known field/),
      },
    ]);
    expect(state.count).toBe(0);
  });

  it('maps the website limit refusal to a permission error with its code', async () => {
    respondWith([() => problemResponse(403, 'website_limit_reached')]);
    const error = await client()
      .websites.create('ws_1', input)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchPermissionError);
    expect(error).toMatchObject({ code: 'website_limit_reached', status: 403 });
  });

  it('does not retry after the request may have reached the server (5xx)', async () => {
    const state = respondWith([() => problemResponse(502, 'server_error')]);
    await expect(client().websites.create('ws_1', input)).rejects.toThrow(CspwatchServerError);
    expect(state.count).toBe(1);
  });

  it('retries on 429', async () => {
    const state = respondWith([
      () => problemResponse(429, 'rate_limited', { headers: { 'retry-after': '0' } }),
      () => HttpResponse.json(makeWebsite(), { status: 201 }),
    ]);
    await expect(client().websites.create('ws_1', input)).resolves.toMatchObject({ id: 'web_1' });
    expect(state.count).toBe(2);
  });

  it('rejects a 2xx body that breaks the documented shape with a validation error', async () => {
    respondWith([
      () =>
        HttpResponse.json(
          { id: 'web_1', name: 'Shop' },
          { status: 201, headers: { 'x-request-id': 'req_bad' } },
        ),
    ]);
    const error = await client()
      .websites.create('ws_1', input)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchResponseValidationError);
    const validation = error as CspwatchResponseValidationError;
    expect(validation).toMatchObject({
      status: 201,
      requestId: 'req_bad',
      rawBody: '{"id":"web_1","name":"Shop"}',
    });
    expect(validation.issues.map((issue) => issue.path.join('.'))).toContain('endpointUrl');
    respondWith([() => new HttpResponse('<html>ok</html>', { status: 201 })]);
    await expect(client().websites.create('ws_1', input)).rejects.toMatchObject({
      code: 'response_validation_failed',
      rawBody: '<html>ok</html>',
    });
  });
});

describe('websites.create over real loopback connections', () => {
  it('retries when the connection is refused (nothing was sent)', async () => {
    const closed = createServer();
    const baseUrl = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    const entries: CspwatchRequestLogEntry[] = [];
    const error = await client({ baseUrl, logger: (entry) => entries.push(entry) })
      .websites.create('ws_1', input)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchConnectionError);
    expect((error as CspwatchConnectionError).requestMayHaveBeenSent).toBe(false);
    expect(entries.map((entry) => entry.errorCode)).toEqual(Array(3).fill('connection_failed'));
  });

  it('does not retry when the connection is reset after sending', async () => {
    let connections = 0;
    const resetting = createServer((socket) => {
      connections++;
      socket.once('data', () => socket.destroy());
    });
    const baseUrl = await listen(resetting);
    try {
      const error = await client({ baseUrl })
        .websites.create('ws_1', input)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CspwatchConnectionError);
      expect((error as CspwatchConnectionError).requestMayHaveBeenSent).toBe(true);
      expect(connections).toBe(1);
      // The same failure on a GET is retried.
      await expect(client({ baseUrl }).apiKeys.list('ws_1').firstPage()).rejects.toThrow(
        CspwatchConnectionError,
      );
      expect(connections).toBe(4);
    } finally {
      await new Promise((resolve) => resetting.close(resolve));
    }
  });

  it('does not retry a POST that timed out', async () => {
    let connections = 0;
    const silent = createServer((socket) => {
      connections++;
      socket.on('error', () => {});
    });
    const baseUrl = await listen(silent);
    try {
      // Long enough that the connection is made before the attempt times out, on a busy machine too.
      const error = await client({ baseUrl, timeout: budget(500) })
        .websites.create('ws_1', input)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CspwatchTimeoutError);
      expect(connections).toBe(1);
    } finally {
      silent.close();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
});

describe('a response body that stalls', () => {
  it('times out the attempt instead of hanging', async () => {
    const { createServer: createHttpServer } = await import('node:http');
    const stalling = createHttpServer((_request, response) => {
      response.writeHead(201, { 'content-type': 'application/json' });
      response.write('{"id":');
    });
    const address = await new Promise<string>((resolve) =>
      stalling.listen(0, '127.0.0.1', () => {
        const info = stalling.address();
        resolve(typeof info === 'object' && info ? `http://127.0.0.1:${info.port}` : '');
      }),
    );
    try {
      const error = await client({ baseUrl: address, timeout: 100 })
        .websites.create('ws_1', input)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CspwatchTimeoutError);
      expect(error).toMatchObject({ scope: 'attempt', timeoutMs: 100 });
    } finally {
      stalling.closeAllConnections();
      await new Promise((resolve) => stalling.close(resolve));
    }
  });
});
