/**
 * Receivers the mock inbox does not play, each on 127.0.0.1 port 0 and closed at teardown: a
 * TCP server that accepts and never answers (counting the sockets open at once), a proxy in
 * front of the inbox that answers 500 to a share of the requests, and a port nobody listens on.
 */
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';

const listen = async (server: Server) => {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
};

/** Destroys every socket still open, then closes the server. */
const closeServer = async (server: Server, sockets: Set<Socket>) => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
};

/** What a {@link HangingServer} saw. */
export interface HangingStats {
  /** Connections accepted, with a request or not. */
  readonly sockets: number;
  /** Connections that carried a request (bytes arrived): one per delivery attempt. */
  readonly requests: number;
  /** Requests open now, and the most open at the same time so far. */
  readonly openRequests: number;
  readonly mostOpenRequests: number;
  /** The most connections open at the same time, a request on them or not. */
  readonly mostOpenSockets: number;
}

/** A TCP server that accepts every connection and never answers. */
export interface HangingServer {
  readonly url: string;
  stats(): HangingStats;
  close(): Promise<void>;
}

/**
 * Starts a {@link HangingServer}. A request is open from its first bytes until the client's
 * end, reset or close of the socket, whichever comes first (the client's timeout ends it). An
 * HTTP client may also open a spare connection that carries no request: counted apart.
 */
export async function startHangingServer(): Promise<HangingServer> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  let openSockets = 0;
  let mostOpenSockets = 0;
  let requests = 0;
  let openRequests = 0;
  let mostOpenRequests = 0;
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    accepted++;
    openSockets++;
    mostOpenSockets = Math.max(mostOpenSockets, openSockets);
    sockets.add(socket);
    let carriesRequest = false;
    let ended = false;
    socket.on('data', () => {
      if (carriesRequest || ended) return;
      carriesRequest = true;
      requests++;
      openRequests++;
      mostOpenRequests = Math.max(mostOpenRequests, openRequests);
    });
    const end = () => {
      if (ended) return;
      ended = true;
      openSockets--;
      if (carriesRequest) openRequests--;
      socket.destroy();
    };
    socket.on('end', end);
    socket.on('error', end);
    socket.on('close', () => {
      end();
      sockets.delete(socket);
    });
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/hook`,
    stats: () => ({ sockets: accepted, requests, openRequests, mostOpenRequests, mostOpenSockets }),
    close: () => closeServer(server, sockets),
  };
}

/** A request the flaky proxy answered 500 itself. */
export interface RefusedRequest {
  /** The inbox channel id from the path. */
  readonly channelId: string;
  /** The payload `id` (read from the JSON body), or `null` when unreadable. */
  readonly alertId: string | null;
}

/** A proxy in front of the mock inbox that answers 500 to a share of the requests. */
export interface FlakyProxy {
  /** Where to deliver for inbox channel `id` (instead of the inbox's own URL). */
  urlFor(channelId: string): string;
  /** The requests it answered 500 without forwarding. */
  readonly refused: readonly RefusedRequest[];
  /** Stops failing: every request is forwarded from now on. */
  heal(): void;
  close(): Promise<void>;
}

/** Request headers not forwarded: the connection's own (fetch sets them again). */
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
]);

/**
 * Starts a {@link FlakyProxy}: each request is answered 500 with probability `failureRate`
 * (verifying nothing), or forwarded as is to `inboxBaseUrl` (the inbox verifies and records
 * it) and answered with the inbox's status.
 */
export async function startFlakyProxy(
  inboxBaseUrl: string,
  failureRate: number,
): Promise<FlakyProxy> {
  const refused: RefusedRequest[] = [];
  let rate = failureRate;
  const sockets = new Set<Socket>();
  const server = createHttpServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const path = request.url ?? '/';
    if (Math.random() < rate) {
      let alertId: string | null = null;
      try {
        alertId = String(JSON.parse(body.toString('utf8')).id);
      } catch {}
      refused.push({ channelId: path.split('/').at(-1) ?? '', alertId });
      response.writeHead(500, { 'content-type': 'application/json' }).end('{"flaky":true}');
      return;
    }
    const headers = Object.entries(request.headers).flatMap(([name, value]) =>
      HOP_HEADERS.has(name) || value === undefined
        ? []
        : [[name, String(value)] as [string, string]],
    );
    try {
      const answer = await fetch(`${inboxBaseUrl}${path}`, { method: 'POST', headers, body });
      const text = await answer.text();
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
    } catch {
      response.destroy(); // the inbox went away (teardown)
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server);
  return {
    urlFor: (channelId) => `http://127.0.0.1:${port}/inbox/${channelId}`,
    refused,
    heal() {
      rate = 0;
    },
    close: () => closeServer(server, sockets),
  };
}

/** A loopback port nobody listens on (taken from the OS, then given back): connections are refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}
