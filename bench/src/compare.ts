/**
 * `pnpm --filter @cspwatch/bench run compare [first.json] [second.json]`: per-cell agreement
 * of two verify runs (by default `results/verify-cells.previous.json` and
 * `results/verify-cells.json`, the last two runs of the verify section). Prints a table, then
 * how many cells agree within ±5% on each target's own clock (the goal) and, for information,
 * on wall and on CPU time. Exit code 1 if a file is missing or the cells differ.
 */
import { existsSync } from 'node:fs';
import { AGREEMENT_TOLERANCE, type CellAgreement, compareCells } from './cell-agreement.js';
import { formatRatio, table } from './report.js';
import { CELLS_FILE, PREVIOUS_CELLS_FILE, readCellsFile } from './verify-cells-file.js';

const [firstPath = PREVIOUS_CELLS_FILE, secondPath = CELLS_FILE] = process.argv
  .slice(2)
  .filter((arg) => arg !== '--');
for (const path of [firstPath, secondPath]) {
  if (!existsSync(path)) {
    console.error(
      `compare: ${path} does not exist; run \`pnpm --filter @cspwatch/bench run bench -- --only=verify\` twice first, or name two files`,
    );
    process.exit(1);
  }
}
const first = readCellsFile(firstPath);
const second = readCellsFile(secondPath);

const percent = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`;
const agreeing = (rows: CellAgreement[]) => rows.filter((row) => row.agrees).length;
const own = compareCells(first.cells, second.cells);
const loads = (file: typeof first) =>
  `load average ${file.loadBefore.join(', ')} before, ${file.loadAfter.join(', ')} after`;
console.log(`first:  ${firstPath} (${first.measuredAt}, Node ${first.node}, ${loads(first)})`);
console.log(`second: ${secondPath} (${second.measuredAt}, Node ${second.node}, ${loads(second)})`);
console.log('');
console.log(
  table(
    ['cell', 'clock', 'first', 'second', 'change', `within ±${AGREEMENT_TOLERANCE * 100}%`],
    own.map((row, index) => [
      row.cell,
      first.cells[index]!.clock,
      formatRatio(row.first),
      formatRatio(row.second),
      percent(row.change),
      row.agrees ? 'yes' : 'NO',
    ]),
  ),
);
console.log('');
console.log(`${agreeing(own)} of ${own.length} cells agree within ±5% (each target's own clock)`);
for (const clock of ['wall', 'cpu'] as const) {
  const rows = compareCells(first.cells, second.cells, clock);
  console.log(`  for information, all on ${clock} time: ${agreeing(rows)} of ${rows.length}`);
}
