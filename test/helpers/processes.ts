import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The JavaScript file behind a package's bin. */
export function binOf(packageName: string, bin: string): string {
  const manifest = require.resolve(`${packageName}/package.json`);
  const { bin: bins } = require(manifest) as { bin: Record<string, string> };
  return join(dirname(manifest), bins[bin]!);
}

/** A free port on 127.0.0.1, as the OS hands it out. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** A Prism process: where it listens, everything it printed so far, and how to stop it. */
export interface PrismProcess {
  readonly baseUrl: string;
  /** stdout and stderr so far (Prism logs each request and any violation there). */
  output(): string;
  /** Resolves once the output matches `pattern` (Prism may log an exchange after answering it). */
  waitForOutput(pattern: RegExp, ms?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts `prism <args…>` on 127.0.0.1 with a free port and resolves once it prints that it
 * listens; rejects with its output if it exits first or does not start within `startMs`.
 */
export async function startPrism(args: string[], startMs = 90_000): Promise<PrismProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [binOf('@stoplight/prism-cli', 'prism'), ...args, '-h', '127.0.0.1', '-p', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const waiters = new Set<() => void>();
  const exited = once(child, 'exit');
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`Prism did not start in ${startMs} ms:\n${output}`));
    }, startMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      for (const waiter of waiters) waiter();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then(([code]) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with ${code}:\n${output}`));
    });
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => output,
    waitForOutput(pattern, ms = 30_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!pattern.test(output)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`Prism never printed ${pattern} in ${ms} ms:\n${output}`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    async close() {
      if (child.exitCode === null) {
        child.kill();
        await exited;
      }
    },
  };
}
