import { describe, expect, it } from 'vitest';
import { replaceSectionPart, replaceTargetRows } from '../src/partial-results.js';

const page = [
  'Measured before.',
  '',
  '| section | target | measured | limit | result |',
  '| --- | --- | --- | --- | --- |',
  '| verify | a | 1.00x | <= 1.10x | PASS |',
  '| redis | b | 1.51x | <= 1.30x | FAIL |',
  '| redis | c | 1.87x | <= 1.30x | FAIL |',
  '| redis-cluster | d | 1.00x | <= 1.20x | PASS |',
  '',
  'Text after the table.',
].join('\n');

describe('replaceTargetRows', () => {
  it("replaces only the rerun sections' rows, where they were, and notes when they were measured", () => {
    const rows = ['| redis | b | 1.20x | <= 1.30x | PASS |'];
    const once = replaceTargetRows(page, new Set(['redis']), rows, 'Re-measured with `x`: one.');
    expect(
      once.split('\n').filter((line) => line.startsWith('| ') && !line.includes('---')),
    ).toEqual([
      '| section | target | measured | limit | result |',
      '| verify | a | 1.00x | <= 1.10x | PASS |',
      '| redis | b | 1.20x | <= 1.30x | PASS |',
      '| redis-cluster | d | 1.00x | <= 1.20x | PASS |',
    ]);
    expect(once).toContain('Re-measured with `x`: one.\n\nText after the table.');
    // A second partial run of the same sections replaces the note instead of adding one.
    const twice = replaceTargetRows(once, new Set(['redis']), rows, 'Re-measured with `x`: two.');
    expect(twice).not.toContain('one.');
    expect(twice).toContain('Re-measured with `x`: two.');
  });
});

describe('replaceSectionPart', () => {
  it('replaces one section up to the next heading and leaves the others', () => {
    const text = '# t\n\n## A\n\nold a\n\n## B\n\nold b\n';
    expect(replaceSectionPart(text, 'A', 'new a')).toBe('# t\n\n## A\n\nnew a\n\n## B\n\nold b\n');
    expect(replaceSectionPart(text, 'B', 'new b')).toBe(
      '# t\n\n## A\n\nold a\n\n## B\n\nnew b\n\n',
    );
  });
});
