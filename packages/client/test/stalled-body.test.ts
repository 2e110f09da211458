/**
 * A body that stalls after the headers is a timeout of the attempt, like stalled headers: the
 * client reads the whole body within ky's `timeout`. A real HTTP server on loopback.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCspwatchClient } from '../src/create-client';
import { CspwatchTimeoutError } from '../src/index';

let server: Server;
let baseUrl: string;
let requests = 0;
const stalled: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    requests += 1;
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' });
    // Half a page, then nothing: the response never ends.
    response.write('{"data":[');
    stalled.push(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  baseUrl = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  for (const response of stalled) response.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('a body that stalls', () => {
  it('times out the attempt, is retried, and ends in an attempt timeout', async () => {
    const client = createCspwatchClient({
      baseUrl,
      token: 'tok_1',
      timeout: 200,
      maxRetries: 1,
      random: () => 0,
    });
    const error = await client.apiKeys
      .list('ws_1')
      .firstPage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchTimeoutError);
    expect(error).toMatchObject({ scope: 'attempt', timeoutMs: 200 });
    expect(requests).toBe(2);
  });
});
