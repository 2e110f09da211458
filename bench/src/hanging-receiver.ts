/**
 * A webhook receiver that never answers: a node:http server on loopback that reads each
 * request and leaves it open, as a stuck endpoint does. The fairness run of the Redis queue
 * bench points one channel at it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A started hanging receiver: its URL, the requests it got, and how to close it. */
export interface HangingReceiver {
  url: string;
  received: () => number;
  /** Drops every open connection and closes the server. */
  close: () => Promise<void>;
}

/** Starts a {@link HangingReceiver} on a free loopback port. */
export async function startHangingReceiver(): Promise<HangingReceiver> {
  let received = 0;
  const server = createServer((request) => {
    request.resume();
    received += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/stuck`,
    received: () => received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
