/**
 * Agreement of two verify runs, cell by cell: the goal is that two runs in a row agree
 * within ±5% on every verify cell. A cell agrees when its second ratio differs from its first
 * by at most `tolerance` of the first.
 */
import type { Clock } from './judge.js';
import type { CellFigure } from './verify-cells-file.js';

/** The goal's tolerance: ±5%. */
export const AGREEMENT_TOLERANCE = 0.05;

/** One cell of both runs. */
export interface CellAgreement {
  /** `target, size, kind`. */
  cell: string;
  first: number;
  second: number;
  /** second / first - 1. */
  change: number;
  agrees: boolean;
}

const keyOf = (cell: CellFigure) => `${cell.target}, ${cell.size}, ${cell.kind}`;

/**
 * Pairs the cells of two runs by target, size and kind and compares their ratios on `clock`
 * (by default each target's own clock, the one its verdict uses). A cell missing from either
 * run is an error: the runs did not measure the same thing.
 */
export function compareCells(
  first: readonly CellFigure[],
  second: readonly CellFigure[],
  clock?: Clock,
  tolerance = AGREEMENT_TOLERANCE,
): CellAgreement[] {
  const seconds = new Map(second.map((cell) => [keyOf(cell), cell]));
  if (seconds.size !== first.length || first.some((cell) => !seconds.has(keyOf(cell)))) {
    throw new Error('the two runs do not have the same verify cells');
  }
  const ratioOf = (cell: CellFigure) => (clock ? cell.byClock[clock].ratio : cell.ratio);
  return first.map((cell) => {
    const a = ratioOf(cell);
    const b = ratioOf(seconds.get(keyOf(cell))!);
    const change = b / a - 1;
    // The epsilon keeps a change of exactly the tolerance (1.05 / 1 - 1 in floating point) in.
    const agrees = Math.abs(change) <= tolerance + 1e-12;
    return { cell: keyOf(cell), first: a, second: b, change, agrees };
  });
}
