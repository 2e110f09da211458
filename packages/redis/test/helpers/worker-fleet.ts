/**
 * Starts delivery workers as child processes (TypeScript run by tsx, `@cspwatch/*` mapped to
 * the sources), each ready when it says so over IPC; a fleet keeps them together, counts the
 * errors they report, and kills whatever is left at teardown.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DeliveryChannel } from '@cspwatch/webhook-sender';
import { budget } from '../../../../test-budget';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

/** Options of {@link startWorkerProcess}. */
export interface WorkerProcessOptions {
  readonly redisUrl: string;
  readonly queueName: string;
  readonly channels: readonly DeliveryChannel[];
  readonly concurrency?: number;
  readonly lockDurationMs?: number;
  readonly maxStalledCount?: number;
  /** The worker's `maxInFlightPerChannel` (the worker's default when left out). */
  readonly maxInFlightPerChannel?: number;
  /** The sender's `timeoutMs`. @default 10000 */
  readonly senderTimeoutMs?: number;
  /** The worker's `closeTimeoutMs` (the worker's default when left out). */
  readonly closeTimeoutMs?: number;
}

/** An error a worker process gave to its `onError`, as it reported it over IPC. */
export interface ReportedError {
  /** The process that reported it. */
  readonly pid: number | undefined;
  readonly code: string;
  readonly message: string;
}

const isReportedError = (
  message: unknown,
): message is { type: 'error'; code: string; message: string } =>
  typeof message === 'object' &&
  message !== null &&
  (message as { type?: unknown }).type === 'error';

/** Forks one worker process and resolves once it takes jobs. */
export async function startWorkerProcess(options: WorkerProcessOptions): Promise<ChildProcess> {
  const optional = (name: string, value: number | undefined) =>
    value === undefined ? {} : { [name]: String(value) };
  const child = fork(join(fixtures, 'worker-process.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      TSX_TSCONFIG_PATH: join(fixtures, 'tsconfig.json'),
      REDIS_URL: options.redisUrl,
      QUEUE_NAME: options.queueName,
      CHANNELS: JSON.stringify(options.channels),
      CONCURRENCY: String(options.concurrency ?? 16),
      LOCK_MS: String(options.lockDurationMs ?? 2000),
      MAX_STALLED: String(options.maxStalledCount ?? 10),
      ...optional('MAX_IN_FLIGHT', options.maxInFlightPerChannel),
      ...optional('SENDER_TIMEOUT_MS', options.senderTimeoutMs),
      ...optional('CLOSE_TIMEOUT_MS', options.closeTimeoutMs),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // never left behind
      reject(new Error(`worker process not ready after ${budget(30_000)} ms`));
    }, budget(30_000));
    const onMessage = (message: unknown) => {
      if (message !== 'ready') return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      clearTimeout(timer);
      resolve();
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`worker process exited early (${code})`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
  return child;
}

/** Stops a worker: SIGTERM (clean close) or SIGKILL (a crash); resolves when it exited. */
export async function stopWorkerProcess(
  child: ChildProcess,
  signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM',
) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/** Worker processes started with the same options. */
export interface WorkerFleet {
  /** The processes not stopped through the fleet, oldest first. */
  readonly running: readonly ChildProcess[];
  /** Every error the fleet's processes reported, in arrival order. */
  readonly errors: readonly ReportedError[];
  /** Starts `count` more processes at once; resolves when all take jobs. */
  start(count?: number): Promise<ChildProcess[]>;
  /** Stops one process; SIGTERM waits for a clean close. Resolves with its exit code. */
  stop(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<number | null>;
  /** SIGKILLs every process still running (teardown). */
  close(): Promise<void>;
}

/** A fleet of worker processes; close it in `afterEach`, even when the test failed. */
export function createWorkerFleet(options: WorkerProcessOptions): WorkerFleet {
  const running: ChildProcess[] = [];
  const started: ChildProcess[] = [];
  const errors: ReportedError[] = [];
  let closed = false;
  const startOne = async () => {
    const child = await startWorkerProcess(options);
    started.push(child);
    if (closed) {
      // Ready after a teardown that came first (another start failed): not left behind.
      await stopWorkerProcess(child, 'SIGKILL');
      throw new Error('the worker fleet was closed while this process started');
    }
    running.push(child);
    child.on('message', (message) => {
      if (isReportedError(message)) {
        errors.push({ pid: child.pid, code: message.code, message: message.message });
      }
    });
    return child;
  };
  return {
    running,
    errors,
    start: (count = 1) => Promise.all(Array.from({ length: count }, startOne)),
    async stop(child, signal) {
      const index = running.indexOf(child);
      if (index >= 0) running.splice(index, 1);
      const exited = new Promise<number | null>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
        else child.once('exit', (code) => resolve(code));
      });
      await stopWorkerProcess(child, signal);
      return exited;
    },
    async close() {
      closed = true;
      running.length = 0;
      await Promise.all(started.map((child) => stopWorkerProcess(child, 'SIGKILL')));
    },
  };
}
