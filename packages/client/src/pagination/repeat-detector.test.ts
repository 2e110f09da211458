import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RepeatDetector } from './repeat-detector';

/** Feeds `sequence` to a detector; returns the index of the first flagged cursor, or -1. */
function firstFlagged(sequence: readonly string[], start?: string): number {
  const detector = new RepeatDetector(start);
  let previous = start;
  for (const [index, cursor] of sequence.entries()) {
    if (detector.repeats(previous, cursor)) return index;
    previous = cursor;
  }
  return -1;
}

/** `tail` distinct cursors, then a cycle of `cycle` distinct cursors repeated `laps` times. */
function loopingSequence(tail: number, cycle: number, laps: number): string[] {
  const head = Array.from({ length: tail }, (_, i) => `t${i}`);
  const loop = Array.from({ length: cycle }, (_, i) => `c${i}`);
  return [...head, ...Array.from({ length: laps }, () => loop).flat()];
}

describe('RepeatDetector', () => {
  it('flags a cursor equal to the previous one at once', () => {
    expect(firstFlagged(['a', 'b', 'b'])).toBe(2);
    expect(firstFlagged(['s'], 's')).toBe(0);
  });

  it('flags a cycle A -> B -> C -> A within twice its length after the first repeat', () => {
    const index = firstFlagged(loopingSequence(0, 3, 10));
    expect(index).toBeGreaterThanOrEqual(3);
    expect(index).toBeLessThanOrEqual(3 + 2 * 3);
  });

  it('never flags distinct cursors', () => {
    const sequence = Array.from({ length: 20_000 }, (_, i) => `k${i}`);
    expect(firstFlagged(sequence, 'start')).toBe(-1);
  });

  it('flags every cycle, after a tail or not, within the bound of Brent’s algorithm', () => {
    fc.assert(
      fc.property(fc.nat(300), fc.integer({ min: 1, max: 300 }), (tail, cycle) => {
        const sequence = loopingSequence(tail, cycle, Math.ceil((4 * (tail + cycle)) / cycle) + 2);
        const index = firstFlagged(sequence);
        const firstRepeat = tail + cycle; // index of the first cursor seen before
        expect(index).toBeGreaterThanOrEqual(firstRepeat);
        // Checkpoints sit at indexes 2^k - 2 with windows of 2^k, so one lands in the cycle
        // with a window at least as long as the cycle before index 2 * max(tail + 1, cycle).
        expect(index).toBeLessThan(2 * Math.max(tail + 1, cycle) + cycle);
        expect(sequence[index]).toMatch(/^c/);
      }),
      { numRuns: 200 },
    );
  });
});
