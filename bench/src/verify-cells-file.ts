/**
 * The verify cells of one run as JSON (`results/verify-cells.json`, git-ignored), so that two
 * runs can be compared cell by cell (`pnpm --filter @cspwatch/bench run compare`): each
 * target's median paired ratio in each cell, with its interval, verdict and both clocks.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RatioJudgement } from './judge.js';

/** One target in one cell (body size and kind). */
export interface CellFigure extends RatioJudgement {
  target: string;
  size: string;
  kind: string;
}

/** The file: when and where it was measured, the load around it, and every cell. */
export interface CellsFile {
  measuredAt: string;
  node: string;
  /** `os.loadavg()` (1, 5, 15 min) when the section started and when it ended. */
  loadBefore: number[];
  loadAfter: number[];
  cells: CellFigure[];
}

const resultsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'results');

/** The latest run's file, and the one before it. */
export const CELLS_FILE = join(resultsDir, 'verify-cells.json');
export const PREVIOUS_CELLS_FILE = join(resultsDir, 'verify-cells.previous.json');

/** Writes this run's cells; the last run's file becomes `verify-cells.previous.json`. */
export function writeCellsFile(content: CellsFile): void {
  if (existsSync(CELLS_FILE)) renameSync(CELLS_FILE, PREVIOUS_CELLS_FILE);
  writeFileSync(CELLS_FILE, `${JSON.stringify(content, null, 2)}\n`);
}

/** Reads a cells file written by `writeCellsFile`. */
export function readCellsFile(path: string): CellsFile {
  const content = JSON.parse(readFileSync(path, 'utf8')) as CellsFile;
  if (!Array.isArray(content.cells)) throw new Error(`${path} is not a verify cells file`);
  return content;
}

/** The load average now, rounded, for `loadBefore` / `loadAfter`. */
export function currentLoad(): number[] {
  return loadavg().map((value) => Math.round(value * 100) / 100);
}
