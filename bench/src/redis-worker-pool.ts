/**
 * The worker processes of the Redis queue bench, seen from the bench: fork one
 * (src/redis-worker-child.ts), ask it over IPC with a timeout, kill it for sure.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StartRequest, WorkerReply, WorkerRequest } from './redis-worker-protocol.js';

const here = dirname(fileURLToPath(import.meta.url));

/** A request without its id (the process numbers them). */
type Request = StartRequest | { readonly type: 'stop' } | { readonly type: 'cpu' };

/** What a successful request answers. */
export type WorkerAnswer = Extract<WorkerReply, { ok: true }>;

/** Thrown when a worker process answers a request with an error. */
export class WorkerRequestError extends Error {
  override readonly name = 'WorkerRequestError';
  /** The error's `code` in the worker (e.g. `invalid_options`). */
  readonly code: string | undefined;
  /** The error's `issues` in the worker (`{ path, message }`). */
  readonly issues: readonly { readonly path: string; readonly message: string }[];

  /** @param reply - the worker's error reply */
  constructor(reply: Extract<WorkerReply, { ok: false }>) {
    super(`worker process: ${reply.message}`);
    this.code = reply.code;
    this.issues = reply.issues ?? [];
  }
}

/** A running worker process; see {@link startWorkerProcess}. */
export interface WorkerProcess {
  /** Sends a request; rejects after `timeoutMs` without an answer, or with its error. */
  request(request: Request, timeoutMs?: number): Promise<WorkerAnswer>;
  /** CPU seconds (user + system) the process has used so far. */
  cpuSeconds(): Promise<number>;
  /** Ends the process: SIGTERM, then SIGKILL after 3 s; resolves once it is gone. */
  kill(): Promise<void>;
  /** Closes the IPC channel (the process then exits by itself); resolves with its exit code. */
  disconnect(): Promise<number | null>;
  /** The process id (of the wrapper, when there is one). */
  readonly pid: number | undefined;
}

/** A program a worker process runs under, e.g. `valgrind --tool=callgrind` (then node). */
export interface ProcessWrapper {
  /** The program, e.g. `/usr/bin/valgrind`. */
  readonly command: string;
  /** Its arguments before node's path. */
  readonly args: readonly string[];
  /** How many times slower node runs under it: every timeout is that many times longer. */
  readonly slowdown: number;
  /** Node's own flags for the guest, e.g. `--single-threaded`. */
  readonly nodeArgs?: readonly string[];
}

/**
 * Forks a worker process and waits (at most `timeoutMs`) until it is ready. Starting is not
 * measured, and several tsx processes starting at once on a busy machine need a while.
 * Under a `wrapper`, node runs as its guest (the IPC channel is inherited through it).
 */
export async function startWorkerProcess(
  readyTimeoutMs = 120_000,
  wrapper?: ProcessWrapper,
): Promise<WorkerProcess> {
  const execArgv = [...(wrapper?.nodeArgs ?? []), '--import', 'tsx'];
  const slowdown = wrapper?.slowdown ?? 1;
  const timeoutMs = readyTimeoutMs * slowdown;
  const child: ChildProcess = fork(join(here, 'redis-worker-child.ts'), [], {
    ...(wrapper
      ? { execPath: wrapper.command, execArgv: [...wrapper.args, process.execPath, ...execArgv] }
      : { execArgv }),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, (reply: WorkerReply) => void>();
  let nextId = 0;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const handle: WorkerProcess = {
    pid: child.pid,
    async disconnect() {
      if (child.connected) child.disconnect();
      await exited;
      return child.exitCode;
    },
    request(request, answerTimeoutMs = 30_000) {
      const id = ++nextId;
      const requestTimeoutMs = answerTimeoutMs * slowdown;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(
            new Error(`worker process: no answer to "${request.type}" in ${requestTimeoutMs} ms`),
          );
        }, requestTimeoutMs);
        pending.set(id, (reply) => {
          clearTimeout(timer);
          if (reply.ok) resolve(reply);
          else reject(new WorkerRequestError(reply));
        });
        child.send({ ...request, id } satisfies WorkerRequest);
      });
    },
    cpuSeconds: async () => (await handle.request({ type: 'cpu' }, 10_000)).cpuMicros / 1e6,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(timer);
    },
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`worker process not ready in ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker process exited before it was ready (${code})`));
    });
    child.once('message', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  child.on('message', (message: WorkerReply) => {
    pending.get(message.id)?.(message);
    pending.delete(message.id);
  });
  child.on('exit', () => {
    for (const [id, answer] of pending) {
      answer({ id, ok: false, message: 'the process exited' });
    }
    pending.clear();
  });
  return handle;
}

/** Starts `count` worker processes; kills the ones started if any fails. */
export async function startWorkerProcesses(count: number): Promise<WorkerProcess[]> {
  const started = await Promise.allSettled(
    Array.from({ length: count }, () => startWorkerProcess()),
  );
  const ready = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = started.find((result) => result.status === 'rejected');
  if (failure) {
    await Promise.all(ready.map((worker) => worker.kill()));
    throw failure.reason;
  }
  return ready;
}
