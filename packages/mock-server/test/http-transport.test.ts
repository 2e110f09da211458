import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';
import { type MockServer, startMockServer } from '../src/index';
import { signedPost } from './signed-post';

/** What only the node transport does: sockets, raw bytes, load. */
describe('startMockServer over node:http', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ apiKeyCount: 75 });
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const keysUrl = () => `${server.url}/v1/workspaces/${server.workspaceIds.main}/api-keys`;
  const auth = () => ({ authorization: `Bearer ${server.tokens.admin}` });

  /** Sends raw bytes and resolves with everything the server wrote before closing. */
  function rawRequest(bytes: string): Promise<string> {
    const { port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.end(bytes));
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
      });
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
  }

  it('listens on 127.0.0.1 with a free port and a URL without trailing slash', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.tokens).toEqual(server.service.tokens);
  });

  it('survives garbage, absolute-form targets and paths that look like other hosts', async () => {
    const garbage = await rawRequest('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400/);
    expect(garbage).toMatch(/\r\nx-request-id: req_[0-9a-f]{24}\r\n/);
    expect(garbage).toMatch(/\r\ncontent-type: application\/problem\+json\r\n/);
    expect(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4))).toMatchObject({
      status: 400,
      code: 'bad_request',
    });
    const hugeHeader = await rawRequest(
      `GET / HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(hugeHeader).toMatch(/^HTTP\/1\.1 431 /);
    expect(hugeHeader).toMatch(/\r\nx-request-id: req_[0-9a-f]{24}\r\n/);
    const absolute = await rawRequest(
      `GET http://evil.example/v1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(absolute).toMatch(/^HTTP\/1\.1 404/);
    const doubleSlash = await fetch(`${server.url}//evil.example/v1/workspaces/x/api-keys`, {
      headers: auth(),
    });
    expect(doubleSlash.status).toBe(404);
    expect((await fetch(keysUrl(), { headers: auth() })).status).toBe(200);
  });

  it('answers 413 to a streamed body over 1 MB without resetting the connection', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 40) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(
      `${server.url}/v1/workspaces/${server.workspaceIds.main}/websites`,
      {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit,
    );
    expect(response.status).toBe(413);
    expect((await response.json()).code).toBe('payload_too_large');
  });

  it('destroys the socket for a dropped connection and keeps serving', async () => {
    server.service.setFaults({ dropConnectionRate: 1 });
    const error = await fetch(keysUrl(), { headers: auth() }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    server.service.setFaults({});
    expect((await fetch(keysUrl(), { headers: auth() })).status).toBe(200);
  });

  it('ends a hung inbox request when the client gives up, and close() still resolves', async () => {
    const secret = 'hang-secret-123';
    const channel = server.service.inbox.createChannel({ secret, response: { hang: true } });
    const aborter = new AbortController();
    const pending = fetch(channel.url, {
      signal: aborter.signal,
      ...(await signedPost({ secret })),
    });
    await expect.poll(() => server.service.inbox.deliveries(channel.id).length).toBe(1);
    aborter.abort();
    await expect(pending).rejects.toThrow();
    const other = await startMockServer();
    const otherChannel = other.service.inbox.createChannel({ secret, response: { hang: true } });
    const stuck = fetch(otherChannel.url, await signedPost({ secret }));
    await expect.poll(() => other.service.inbox.deliveries(otherChannel.id).length).toBe(1);
    await other.close();
    await expect(stuck).rejects.toThrow();
  });

  it(
    'serves 2,000 list requests, 50 at a time, all correct',
    async () => {
      const expected = server.service.store.snapshot().apiKeys;
      let next = 0;
      let correct = 0;
      const worker = async (): Promise<void> => {
        while (next < 2000) {
          const index = next++;
          const limit = (index % 20) + 1;
          const response = await fetch(`${keysUrl()}?limit=${limit}`, { headers: auth() });
          const page = (await response.json()) as {
            data: { id: string }[];
            pagination: { total: number };
          };
          const ids = page.data.map((key) => key.id);
          if (
            response.status === 200 &&
            page.pagination.total === 75 &&
            ids.join() ===
              expected
                .slice(0, limit)
                .map((key) => key.id)
                .join()
          ) {
            correct++;
          }
        }
      };
      await Promise.all(Array.from({ length: 50 }, worker));
      expect(correct).toBe(2000);
    },
    budget(30_000),
  );

  it('refuses bad options before listening', async () => {
    await expect(startMockServer({ port: 70_000 })).rejects.toMatchObject({
      code: 'invalid_options',
    });
    await expect(startMockServer({ apiKeyCount: -1 })).rejects.toThrow(/apiKeyCount/);
    await expect(startMockServer({ faults: { serverErrorRate: 2 } })).rejects.toThrow(
      /serverErrorRate/,
    );
  });
});
