/**
 * One pass over one verify cell (a body size and kind) in a child process of its own
 * (`verify-cell-child.ts`): a fresh V8, so neither our code nor the floor carries type
 * feedback or optimised code from another size or body kind. The two sides of every ratio are
 * still timed in interleaved rounds inside the child; the parent pools the rounds of a cell's
 * passes (see verify-bench.ts).
 */
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GroupResult, MeasureBudget } from './measure.js';
import type { Kind } from './verify-tasks.js';

/** What the child is asked to measure. */
export interface CellRequest {
  bytes: number;
  kind: Kind;
  /**
   * What to measure: the table group (every task of the cell, the peers' included) or the
   * target groups (ours against the floors, in a process that never loads a peer's library).
   */
  measure: 'table' | 'targets';
  budget: MeasureBudget;
}

/** A `GroupResult` as JSON (maps as objects), to cross the process boundary. */
export interface SerializedGroup {
  rounds: number;
  perRound: Record<string, number[]>;
  calls: Record<string, number>;
  cpu: Record<string, number[]>;
}

/** What the child measured in one pass. */
export interface CellPass {
  /** The table group, when asked for. */
  table: SerializedGroup | undefined;
  /** One result per entry of `TARGET_GROUPS`, in order; empty when the table was asked for. */
  targets: SerializedGroup[];
  /** The Web build's file, relative to the package's parent folder (for the notes). */
  webFile: string;
}

/** A group result as JSON. */
export function serializeGroup(result: GroupResult): SerializedGroup {
  return {
    rounds: result.rounds,
    perRound: Object.fromEntries(result.perRound) as Record<string, number[]>,
    calls: Object.fromEntries(result.calls),
    cpu: Object.fromEntries(result.cpu.perRound) as Record<string, number[]>,
  };
}

/** A group result back from JSON. */
export function deserializeGroup(group: SerializedGroup): GroupResult {
  return {
    rounds: group.rounds,
    perRound: new Map(Object.entries(group.perRound)),
    calls: new Map(Object.entries(group.calls)),
    cpu: { perRound: new Map(Object.entries(group.cpu)) },
  };
}

const here = dirname(fileURLToPath(import.meta.url));
const CHILD_TIMEOUT_MS = 120_000;

/** Measures one pass over one cell in a fresh child process. */
export function measureCellInChild(request: CellRequest): Promise<CellPass> {
  const child = fork(join(here, 'verify-cell-child.ts'), [JSON.stringify(request)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const name = `verify cell ${request.bytes} B ${request.kind}`;
  return new Promise((resolve, reject) => {
    let pass: CellPass | undefined;
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${name}: no result in ${CHILD_TIMEOUT_MS / 1000} s`));
    }, CHILD_TIMEOUT_MS);
    child.on('message', (message) => {
      pass = message as CellPass;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (pass) resolve(pass);
      else reject(new Error(`${name}: the child exited with code ${code} and no result`));
    });
  });
}
