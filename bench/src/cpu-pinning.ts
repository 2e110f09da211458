/**
 * Gives redis-server a core of its own, as it has on its own host in production, and keeps the
 * bench and its worker processes on the other cores. On a 2-core machine, a worker process that
 * keeps one core busy otherwise shares the cores with redis-server, and redis-server's CPU per
 * command then grows with the workers' load rather than with its own work. Linux with
 * `taskset` (util-linux) and two cores or more; elsewhere nothing is pinned and the
 * section's notes say so.
 */
import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import type { Redis } from 'ioredis';

const run = promisify(execFile);

/** Which cores a section's processes were pinned to, or why they were not. */
export type Pinning =
  | { readonly pinned: true; readonly redisCore: number; readonly otherCores: string }
  | { readonly pinned: false; readonly reason: string };

/** In what words a section's notes say how its processes ran. */
export function describePinning(pinning: Pinning): string {
  return pinning.pinned
    ? `redis-server pinned to core ${pinning.redisCore}, the bench (with its receivers) and the worker processes to core(s) ${pinning.otherCores} (src/cpu-pinning.ts)`
    : `${pinning.reason}: redis-server and the worker processes share the cores`;
}

/** Pins `pid` (every thread of it) to the cores in `list` (taskset's list form, e.g. `0-2`). */
async function pin(pid: number, list: string): Promise<void> {
  await run('taskset', ['--all-tasks', '--cpu-list', '--pid', list, String(pid)]);
}

/**
 * Pins the redis-server that `redis` is connected to onto the last core, and this process and
 * `pids` onto the others.
 */
export async function pinRedisApart(
  redis: Pick<Redis, 'call'>,
  pids: readonly number[],
): Promise<Pinning> {
  const cores = availableParallelism();
  if (process.platform !== 'linux' || cores < 2) {
    return { pinned: false, reason: `not pinned: ${cores} core(s) on ${process.platform}` };
  }
  const info = String(await redis.call('INFO', 'server'));
  const redisPid = Number(/process_id:(\d+)/.exec(info)?.[1]);
  const redisCore = cores - 1;
  const otherCores = cores === 2 ? '0' : `0-${cores - 2}`;
  try {
    await pin(redisPid, String(redisCore));
    await Promise.all([process.pid, ...pids].map((pid) => pin(pid, otherCores)));
  } catch (error) {
    return { pinned: false, reason: `not pinned: taskset failed (${(error as Error).message})` };
  }
  return { pinned: true, redisCore, otherCores };
}

/** Lets this process run on every core again (the sections after this one are not pinned). */
export async function unpinSelf(): Promise<void> {
  const cores = availableParallelism();
  if (process.platform !== 'linux' || cores < 2) return;
  await pin(process.pid, `0-${cores - 1}`).catch(() => {});
}
