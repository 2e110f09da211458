/**
 * Markdown output of the bench: tables, number formatting and the PASS/FAIL rows of targets.
 */

/** One target checked by a section: the figure, its limit and the verdict. */
export interface TargetResult {
  section: string;
  target: string;
  value: string;
  limit: string;
  pass: boolean;
}

/** What a section returns: its Markdown (tables and notes) and the targets it checked. */
export interface SectionResult {
  title: string;
  markdown: string;
  targets: TargetResult[];
  /** A short table for the README summary (`results/summary.md`), if the section has one. */
  summary?: string;
}

/** A Markdown table from a header row and body rows. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const escapeCell = (cell: string) => cell.replace(/\|/g, '\\|');
  const line = (cells: readonly string[]) => `| ${cells.map(escapeCell).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** A duration in nanoseconds, in the unit that keeps 3 significant digits. */
export function formatNs(ns: number): string {
  if (!Number.isFinite(ns)) return 'n/a';
  if (ns < 1_000) return `${ns.toFixed(0)} ns`;
  if (ns < 1_000_000) return `${(ns / 1_000).toPrecision(3)} µs`;
  return `${(ns / 1_000_000).toPrecision(3)} ms`;
}

/** A ratio such as `1.04x`. */
export function formatRatio(ratio: number): string {
  return Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : 'n/a';
}

/** A byte count: `812 B`, `2.0 KB` (1 KB = 1024 B). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

/** `PASS` or `FAIL`. */
export function verdict(pass: boolean): string {
  return pass ? 'PASS' : 'FAIL';
}

/** The table of every target of every section. */
export function targetsTable(targets: readonly TargetResult[]): string {
  return table(
    ['section', 'target', 'measured', 'limit', 'result'],
    targets.map((t) => [t.section, t.target, t.value, t.limit, verdict(t.pass)]),
  );
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
