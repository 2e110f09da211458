/**
 * Child processes the tests of several workspace packages start: a package's bin, and Prism
 * serving an OpenAPI document. Each caller passes its own `import.meta.url`, so a tool is
 * resolved from the dependencies of the package whose test runs it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

/** The JavaScript file behind a package's bin, resolved from the module at `from`. */
export function binOf(packageName: string, bin: string, from: string | URL): string {
  const require = createRequire(from);
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

/** Where {@link startPrism} finds Prism, and how long it may take to start. */
export interface StartPrismOptions {
  /** The caller's `import.meta.url`: Prism is resolved from that package's dependencies. */
  readonly from: string | URL;
  /** Longest wait for Prism to listen, in ms. @default 90000 */
  readonly startMs?: number;
}

/**
 * Starts `prism <args…>` on 127.0.0.1 with a free port and resolves once it prints that it
 * listens; rejects with its output if it exits first or does not start within `startMs`.
 */
export async function startPrism(
  args: string[],
  { from, startMs = 90_000 }: StartPrismOptions,
): Promise<PrismProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [binOf('@stoplight/prism-cli', 'prism', from), ...args, '-h', '127.0.0.1', '-p', String(port)],
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
