import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CspwatchApiError, createCspwatchClient } from '../src/index';
import { makeWebsite } from './fixtures';

/*
 * Over real loopback HTTP: the client never follows a redirect, to another origin (where
 * fetch would drop the token, or worse, keep it) or to its own.
 */

let target: Server;
let redirecting: Server;
let targetUrl = '';
let baseUrl = '';
const hits = { target: 0, redirecting: 0 };

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '');
    }),
  );
}

beforeAll(async () => {
  target = createServer((_request, response) => {
    hits.target++;
    response.writeHead(201, { 'content-type': 'application/json' });
    response.end(JSON.stringify(makeWebsite()));
  });
  targetUrl = await listen(target);
  redirecting = createServer((request, response) => {
    hits.redirecting++;
    const status = request.method === 'POST' ? 302 : 307;
    const location = request.url?.includes('same-origin')
      ? '/v1/elsewhere'
      : `${targetUrl}${request.url}`;
    response.writeHead(status, { location, 'x-request-id': 'req_redirect' });
    response.end();
  });
  baseUrl = await listen(redirecting);
});
afterAll(async () => {
  await new Promise((resolve) => target.close(resolve));
  await new Promise((resolve) => redirecting.close(resolve));
});

const client = () => createCspwatchClient({ baseUrl, token: 'tok_redirect', random: () => 0 });

describe('redirects', () => {
  it('a cross-origin 307 on a GET is an error with status and location, not followed or retried', async () => {
    const before = { ...hits };
    const error = await client()
      .apiKeys.list('ws_1')
      .firstPage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchApiError);
    expect(error).toMatchObject({
      status: 307,
      code: 'redirect_not_followed',
      location: `${targetUrl}/v1/workspaces/ws_1/api-keys`,
      requestId: 'req_redirect',
    });
    expect((error as Error).message).toMatch(/redirect to http:\/\/127\.0\.0\.1:\d+\/v1.*baseUrl/);
    expect(hits.redirecting - before.redirecting).toBe(1);
    expect(hits.target).toBe(before.target);
  });

  it('a 302 on the POST is not followed either', async () => {
    const before = { ...hits };
    const error = await client()
      .websites.create('same-origin', { name: 'Shop', url: 'https://shop.example.com' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 302, location: '/v1/elsewhere' });
    expect(hits.redirecting - before.redirecting).toBe(1);
    expect(hits.target).toBe(before.target);
  });

  it('a browser’s opaque redirect (status 0, no headers) is the same error', async () => {
    const opaque = {
      type: 'opaqueredirect',
      status: 0,
      statusText: '',
      ok: false,
      headers: new Headers(),
      body: null,
      text: async () => '',
      // ky hands its `afterResponse` hooks a clone, as a browser's Response allows.
      clone: () => opaque,
    } as Response;
    const browserLike = createCspwatchClient({
      baseUrl: 'https://api.cspwatch.test',
      token: 'tok',
      fetch: async () => opaque,
    });
    await expect(browserLike.apiKeys.list('ws_1').firstPage()).rejects.toMatchObject({
      status: 0,
      code: 'redirect_not_followed',
      location: undefined,
    });
  });
});
