/**
 * Runs the built `cspwatch-mock` executable (its committed launcher and dist/, so build
 * first) and collects its output. Every child a runner started is killed by `killAll` (call
 * it in `afterEach`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../bin/cspwatch-mock.js', import.meta.url));

/** A started CLI: the process and what it wrote so far. */
export interface CliRun {
  child: ChildProcess;
  output: () => string;
  errors: () => string;
}

/** Starts CLI processes and kills those still running when asked. */
export function createCliRunner() {
  const children: ChildProcess[] = [];
  return {
    run(args: string[], env: Record<string, string> = {}): CliRun {
      const child = spawn(process.execPath, [CLI, ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...env },
      });
      children.push(child);
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      return { child, output: () => stdout, errors: () => stderr };
    },
    killAll(): void {
      for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
