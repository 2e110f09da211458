/**
 * A minimal server of the list-API-keys endpoint for the heap measurement: it serves N keys
 * in pages, each built on the fly from a template key taken from the real mock server (so the
 * shape is exactly what the client validates), with an offset cursor. Each page costs O(page)
 * to serve, so 100,000 keys take seconds (the mock server scans all its keys on each request).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMockServer } from '@cspwatch/mock-server';

/** A running page server; close it when done. */
export interface KeyPagesServer {
  url: string;
  token: string;
  workspaceId: string;
  close(): Promise<void>;
}

async function templateKey(): Promise<{
  template: Record<string, unknown>;
  workspaceId: string;
  token: string;
}> {
  const mock = await startMockServer({ apiKeyCount: 1 });
  try {
    const response = await fetch(
      `${mock.url}/v1/workspaces/${mock.workspaceIds.main}/api-keys?limit=1`,
      {
        headers: { authorization: `Bearer ${mock.tokens.admin}` },
      },
    );
    const page = (await response.json()) as { data: Record<string, unknown>[] };
    if (!page.data[0]) throw new Error('the mock server listed no key to use as a template');
    return {
      template: page.data[0],
      workspaceId: mock.workspaceIds.main,
      token: mock.tokens.admin,
    };
  } finally {
    await mock.close();
  }
}

/** Starts a server of `total` keys on 127.0.0.1, port 0. */
export async function startKeyPagesServer(total: number): Promise<KeyPagesServer> {
  const { template, workspaceId, token } = await templateKey();
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (
      request.headers.authorization !== `Bearer ${token}` ||
      !url.pathname.endsWith('/api-keys')
    ) {
      response.writeHead(404).end();
      return;
    }
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const cursor = url.searchParams.get('cursor');
    const start = cursor === null ? 0 : Number(Buffer.from(cursor, 'base64url').toString());
    const end = Math.min(start + limit, total);
    const data = [];
    for (let index = start; index < end; index += 1) {
      data.push({ ...template, id: `key_${index}`, name: `bench key ${index}` });
    }
    const hasMore = end < total;
    const nextCursor = hasMore ? Buffer.from(String(end)).toString('base64url') : null;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ data, pagination: { nextCursor, hasMore, total } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    workspaceId,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
