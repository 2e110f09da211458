/**
 * Starts delivery workers as child processes (TypeScript run by tsx, `@cspwatch/*` mapped to
 * the sources), each ready when it says so over IPC.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DeliveryChannel } from '@cspwatch/webhook-sender';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

/** Options of {@link startWorkerProcess}. */
export interface WorkerProcessOptions {
  readonly redisUrl: string;
  readonly queueName: string;
  readonly channels: readonly DeliveryChannel[];
  readonly concurrency?: number;
  readonly lockDurationMs?: number;
  readonly maxStalledCount?: number;
}

/** Forks one worker process and resolves once it takes jobs. */
export async function startWorkerProcess(options: WorkerProcessOptions): Promise<ChildProcess> {
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
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('worker process not ready after 30 s')),
      30_000,
    );
    child.once('message', () => {
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker process exited early (${code})`));
    });
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
