/** Writes one code block of a docs page to a module of its own, so a test can import and run it. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractCodeBlocks } from './extract';
import { repositoryRoot } from './typecheck';

/** Where the blocks to run are written (git-ignored, like the type-check's blocks). */
const runDir = join(repositoryRoot, 'examples/docs-check/.cache/run');

/**
 * Finds the first ` ```ts ` block (or the `nth`, from 0) after the heading that starts with
 * `heading` in `docs/<page>`, writes it as is to `.cache/run/`, and returns the module's path.
 * Throws when the page has no such heading or no such block under it, so a renamed section
 * fails loudly.
 */
export function writePageBlock(page: string, heading: string, nth = 0): string {
  const markdown = readFileSync(join(repositoryRoot, 'docs', page), 'utf8');
  const lines = markdown.split(/\r?\n/);
  const at = lines.findIndex(
    (line) => /^#{1,6} /.test(line) && line.replace(/^#+ /, '').startsWith(heading),
  );
  if (at === -1) throw new Error(`docs/${page} has no heading starting with "${heading}"`);
  const block = extractCodeBlocks(markdown).filter((b) => b.lang === 'ts' && b.line > at + 1)[nth];
  if (!block) throw new Error(`docs/${page} has no ts block ${nth} under "${heading}"`);
  mkdirSync(runDir, { recursive: true });
  const slug = heading.replace(/\W+/g, '-').toLowerCase();
  const name = `${page.replace(/\.md$/, '')}-${slug}${nth > 0 ? `-${nth}` : ''}.ts`;
  const path = join(runDir, name);
  writeFileSync(path, block.code);
  return path;
}
