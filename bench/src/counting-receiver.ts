/**
 * The webhook receiver of the sender and queue benchmarks: a bare node:http server on
 * loopback that answers 204 to every POST and counts them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A started receiver: its server (close it), its URL, and how many deliveries it got. */
export interface CountingReceiver {
  server: Server;
  url: string;
  received: () => number;
}

/** Starts a {@link CountingReceiver} on a free loopback port. */
export async function startCountingReceiver(): Promise<CountingReceiver> {
  let received = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received += 1;
      response.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/hooks/cspwatch`, received: () => received };
}
