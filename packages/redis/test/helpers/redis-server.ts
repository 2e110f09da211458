/**
 * Starts a private `redis-server` on a free loopback port, in its own temp dir, with no
 * persistence (or, for crash tests, an AOF fsynced on every write), and stops it afterwards.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { budget } from '../../../../test-budget';

/** A running private Redis. */
export interface RedisServerHandle {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** The server's working dir (with `persistent: true`, its AOF is in `appendonlydir/`). */
  readonly dir: string;
  /** Kills the server with SIGKILL (a crash) and starts it again on the same port and dir. */
  restart(options?: { downMs?: number }): Promise<void>;
  /** Kills the server with SIGKILL and waits until it is gone. */
  crash(): Promise<void>;
  /** Starts it again after `crash()`. */
  start(): Promise<void>;
  /** Stops the server and removes its dir. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** Resolves once a PING over a raw socket gets `+PONG`, polling until `timeoutMs`. */
async function waitForPong(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + budget(timeoutMs);
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      const done = (value: boolean) => {
        socket.destroy();
        resolve(value);
      };
      socket.setTimeout(500, () => done(false));
      socket.once('error', () => done(false));
      socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
      socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not answer PING`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts `redis-server` (from PATH, or `REDIS_SERVER_BIN`).
 * `persistent: true` turns the AOF on (`appendfsync always`) so a restart after SIGKILL keeps
 * every acknowledged write, as a production Redis configured for BullMQ does.
 */
export async function startRedisServer(
  options: {
    persistent?: boolean;
    /** More `redis-server` arguments, e.g. `['--auto-aof-rewrite-percentage', '0']`. */
    extraArgs?: readonly string[];
  } = {},
): Promise<RedisServerHandle> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'cspwatch-redis-'));
  const binary = process.env.REDIS_SERVER_BIN ?? 'redis-server';
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir];
  args.push(
    ...(options.persistent
      ? ['--appendonly', 'yes', '--appendfsync', 'always']
      : ['--appendonly', 'no']),
  );
  args.push('--maxmemory-policy', 'noeviction', '--protected-mode', 'yes');
  args.push(...(options.extraArgs ?? []));
  let child: ChildProcess | null = null;

  const start = async () => {
    const spawned = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child = spawned;
    let failure = '';
    spawned.stderr?.on('data', (chunk) => {
      failure += chunk;
    });
    const exited = new Promise<never>((_, reject) => {
      spawned.once('error', (error) =>
        reject(new Error(`cannot start ${binary} (install redis-server): ${error.message}`)),
      );
      spawned.once('exit', (code) =>
        reject(new Error(`redis-server exited (${code}): ${failure}`)),
      );
    });
    exited.catch(() => {});
    await Promise.race([waitForPong(port, 15_000), exited]);
  };
  const crash = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const gone = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await gone;
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    start,
    crash,
    async restart({ downMs = 0 } = {}) {
      await crash();
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
      await start();
    },
    async stop() {
      await crash();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
