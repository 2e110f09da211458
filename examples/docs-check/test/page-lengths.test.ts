/**
 * Short paths stay short: the five-minute pages the docs index opens with are under 80 lines,
 * every package README under 150, and the root README carries no benchmark table (the bench
 * writes its figures to bench/RESULTS.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../src/typecheck';

const FIVE_MINUTE_PAGE_MAX_LINES = 79;
const PACKAGE_README_MAX_LINES = 149;
const FIVE_MINUTE_PATHS = [
  'receive-webhooks.md',
  'call-the-api.md',
  'test-against-the-mock.md',
  'run-a-sender-fleet.md',
];

const read = (path: string): string => readFileSync(join(repositoryRoot, path), 'utf8');

/** Lines of a text file; a final newline does not start another line. */
function lineCount(text: string): number {
  if (text === '') return 0;
  return text.replace(/\r?\n$/, '').split(/\r?\n/).length;
}

/** The pages linked from the `## Five-minute paths` section of docs/README.md, in order. */
function fiveMinutePaths(): string[] {
  const index = read('docs/README.md');
  const section = /^## Five-minute paths\n([\s\S]*?)(?=^## )/m.exec(index)?.[1] ?? '';
  return [...section.matchAll(/\]\(\.\/([\w-]+\.md)\)/g)].map((match) => match[1]!);
}

describe('page lengths', () => {
  it('counts lines as an editor shows them', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a')).toBe(1);
    expect(lineCount('a\n')).toBe(1);
    expect(lineCount('a\r\nb\r\n')).toBe(2);
    expect(lineCount('a\n\n')).toBe(2);
  });

  it('the docs index opens with the five-minute paths', () => {
    expect(/^## (.*)$/m.exec(read('docs/README.md'))?.[1]).toBe('Five-minute paths');
    expect(fiveMinutePaths()).toEqual(expect.arrayContaining(FIVE_MINUTE_PATHS));
  });

  it.each(FIVE_MINUTE_PATHS)(`docs/%s is under ${FIVE_MINUTE_PAGE_MAX_LINES + 1} lines`, (page) => {
    expect(lineCount(read(`docs/${page}`))).toBeLessThanOrEqual(FIVE_MINUTE_PAGE_MAX_LINES);
  });

  const packages = readdirSync(join(repositoryRoot, 'packages')).sort();
  it.each(packages)(
    `packages/%s/README.md is under ${PACKAGE_README_MAX_LINES + 1} lines`,
    (name) => {
      expect(lineCount(read(`packages/${name}/README.md`))).toBeLessThanOrEqual(
        PACKAGE_README_MAX_LINES,
      );
    },
  );

  it('the root README links the benchmark results instead of carrying them', () => {
    const readme = read('README.md');
    expect(readme).not.toContain('<!-- bench-summary:start -->');
    expect(readme).not.toMatch(/\|\s*(PASS|FAIL)\s*\|/);
    expect(readme).toContain('bench/RESULTS.md');
    expect(read('bench/RESULTS.md')).toContain('<!-- bench-summary:start -->');
  });
});
