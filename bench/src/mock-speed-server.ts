/**
 * Child process of the mock-speed section: serves the list-API-keys page either from the
 * mock server (`mock`) or from a bare node:http server that `JSON.stringify`s the same page
 * object on each request (`bare`), on 127.0.0.1, and prints `{ url, token }` as one line.
 * It runs until its parent ends it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMockServer } from '@cspwatch/mock-server';

const mode = process.argv[2];
const KEYS = 200;
const mock = await startMockServer({ apiKeyCount: KEYS });
const path = `/v1/workspaces/${mock.workspaceIds.main}/api-keys?limit=50`;
const token = mock.tokens.admin;

if (mode === 'bare') {
  const page = await (
    await fetch(mock.url + path, { headers: { authorization: `Bearer ${token}` } })
  ).json();
  await mock.close();
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(page));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}${path}`, token })}\n`);
} else {
  process.stdout.write(`${JSON.stringify({ url: mock.url + path, token })}\n`);
}
