import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { linkSignal } from './linked-signal';

describe('linkSignal', () => {
  it('aborts with the caller’s reason, and stops following once released', () => {
    const caller = new AbortController();
    const first = linkSignal(caller.signal);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    first.release();
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);

    const second = linkSignal(caller.signal);
    const reason = new Error('stop');
    caller.abort(reason);
    expect(second.signal?.aborted).toBe(true);
    expect(second.signal?.reason).toBe(reason);
    expect(first.signal?.aborted).toBe(false);
    second.release();
  });

  it('is aborted at once when the caller’s signal already is, and absent without one', () => {
    const reason = new Error('gone');
    expect(linkSignal(AbortSignal.abort(reason)).signal?.reason).toBe(reason);
    expect(linkSignal(undefined).signal).toBeUndefined();
  });
});
