/**
 * Keeps the figures in bench/README.md and bench/RESULTS.md current: replaces the text between
 * `<!-- NAME:start -->` and `<!-- NAME:end -->` with fresh Markdown, then formats the file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Lets the repo's formatter (Biome) align the tables, so `pnpm lint` stays clean. */
function formatMarkdown(file: string): void {
  // The repo root's Biome, wherever the README is (bench/src -> ../../node_modules).
  const biome = join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'biome');
  if (!existsSync(biome)) return;
  try {
    execFileSync(biome, ['format', '--write', file], { stdio: 'ignore' });
  } catch {
    // Formatting is cosmetic; the figures are written either way.
  }
}

/** The text of one marked block of a Markdown file, or `undefined` if it has no markers. */
export function readReadmeBlock(file: string, name: string): string | undefined {
  const text = readFileSync(file, 'utf8');
  const start = `<!-- ${name}:start -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(`<!-- ${name}:end -->`);
  return from === -1 || to < from ? undefined : text.slice(from + start.length, to);
}

/** Replaces one marked block of a Markdown file; leaves the file alone if it has no markers. */
export function updateReadmeBlock(file: string, name: string, markdown: string): boolean {
  const text = readFileSync(file, 'utf8');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to < from) return false;
  writeFileSync(
    file,
    `${text.slice(0, from + start.length)}\n${markdown.trim()}\n${text.slice(to)}`,
  );
  formatMarkdown(file);
  return true;
}
