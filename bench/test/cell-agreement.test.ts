import { describe, expect, it } from 'vitest';
import { compareCells } from '../src/cell-agreement.js';
import type { CellFigure } from '../src/verify-cells-file.js';

const figure = (size: string, ratio: number, cpu = ratio): CellFigure => ({
  target: 'Node signature check / floor',
  size,
  kind: 'string',
  ratio,
  interval: [ratio * 0.98, ratio * 1.02],
  clock: 'wall',
  byClock: {
    wall: { ratio, interval: [ratio, ratio] },
    cpu: { ratio: cpu, interval: [cpu, cpu] },
  },
  verdict: 'pass',
  remeasured: 0,
  rounds: 31,
});

describe('compareCells', () => {
  it('agrees within ±5% of the first run, inclusive', () => {
    const rows = compareCells(
      [figure('256 B', 1), figure('2 KB', 1), figure('64 KB', 1)],
      [figure('2 KB', 0.94), figure('256 B', 1.05), figure('64 KB', 0.96)],
    );
    expect(rows.map((row) => [row.cell.split(', ')[1], row.agrees])).toEqual([
      ['256 B', true],
      ['2 KB', false],
      ['64 KB', true],
    ]);
    expect(rows[1]!.change).toBeCloseTo(-0.06);
  });

  it('compares on the clock asked for', () => {
    const rows = compareCells([figure('256 B', 1, 1)], [figure('256 B', 1, 1.2)], 'cpu');
    expect(rows[0]!.agrees).toBe(false);
    expect(compareCells([figure('256 B', 1, 1)], [figure('256 B', 1, 1.2)])[0]!.agrees).toBe(true);
  });

  it('refuses runs that do not have the same cells', () => {
    expect(() => compareCells([figure('256 B', 1)], [figure('2 KB', 1)])).toThrow(/same/);
    expect(() => compareCells([figure('256 B', 1)], [])).toThrow(/same/);
  });
});
