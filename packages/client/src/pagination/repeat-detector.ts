/*
 * Cycle detection over a pagination cursor sequence in O(1) memory, so a long list does not
 * accumulate every cursor it has seen.
 */

/**
 * Constant-memory detection of a server that repeats cursors (Brent's cycle detection over
 * the cursor sequence): only a checkpoint cursor and a power-of-two window are kept. A cycle
 * of any length is caught within about twice its length in extra pages, and a cursor equal
 * to the previous one at once. Internal.
 */
export class RepeatDetector {
  #checkpoint: string | undefined;
  #window = 1;
  #steps = 0;

  constructor(start: string | undefined) {
    this.#checkpoint = start;
  }

  /** Whether `next` (following `previous`) closes a cycle; otherwise records it. */
  repeats(previous: string | undefined, next: string): boolean {
    if (next === previous || next === this.#checkpoint) return true;
    this.#steps += 1;
    if (this.#steps === this.#window) {
      this.#checkpoint = next;
      this.#window *= 2;
      this.#steps = 0;
    }
    return false;
  }
}
