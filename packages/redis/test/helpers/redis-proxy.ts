/**
 * A loopback TCP proxy in front of a redis-server that can lose one reply: the connection that
 * sent a given command is cut right after Redis answered it, so the command ran but its client
 * never heard back (ioredis reconnects and sends it again).
 */
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

/** What {@link startRedisProxy} gives back. */
export interface RedisProxy {
  /** The proxy's `redis://` URL. */
  readonly url: string;
  /**
   * Cuts the next connection that sends `command` (e.g. `'lpushx'`) once Redis answered it
   * with an integer; resolves when it was cut.
   */
  loseReplyTo(command: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts a proxy to the redis-server at `target` (a `redis://host:port` URL). */
export async function startRedisProxy(target: string): Promise<RedisProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let armed: { command: string; cut: () => void } | undefined;
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    let sent = false; // this connection sent the armed command
    let answered = '';
    client.on('data', (chunk) => {
      const text = chunk.toString('latin1').toLowerCase();
      if (armed && !sent && text.includes(`\r\n${armed.command}\r\n`)) sent = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (sent && armed) {
        answered += chunk.toString('latin1');
        // Its integer reply is in: the command ran. Cut before the client hears it.
        if (/(^|\r\n):\d+\r\n/.test(answered)) {
          const { cut } = armed;
          armed = undefined;
          client.destroy();
          upstream.destroy();
          cut();
          return;
        }
      }
      client.write(chunk);
    });
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
      from.on('error', () => to.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${own}`,
    loseReplyTo: (command) =>
      new Promise<void>((resolve) => {
        armed = { command: command.toLowerCase(), cut: resolve };
      }),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
