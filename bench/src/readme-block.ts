/**
 * Keeps the figures in bench/README.md current: replaces the text between
 * `<!-- NAME:start -->` and `<!-- NAME:end -->` with fresh Markdown.
 */
import { readFileSync, writeFileSync } from 'node:fs';

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
  return true;
}
