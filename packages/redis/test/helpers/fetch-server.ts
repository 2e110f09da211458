/**
 * Serves a fetch-style handler `(Request) => Promise<Response>` on a real node:http server on
 * 127.0.0.1 port 0, as a user mounts `healthHandler` (GET and HEAD only: no request body).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running server; see {@link serveFetchHandler}. */
export interface FetchServer {
  /** Base URL without a trailing slash. */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts a node:http server that answers every request with `handler`. */
export async function serveFetchHandler(
  handler: (request: Request) => Promise<Response>,
): Promise<FetchServer> {
  const server = createServer((req, res) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method ?? 'GET',
      headers,
    });
    handler(request)
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch(() => {
        res.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
