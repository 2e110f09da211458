import { describe, expect, it } from 'vitest';
import {
  CspwatchBaseError,
  CspwatchIssuesError,
  formatIssues,
  hasErrorKind,
  issue,
} from '../src/index';

/** Declares a small error family, as a package does; called twice it stands for two installed copies. */
function family() {
  class PackageError extends CspwatchBaseError<'bad_input' | 'timeout'> {
    static readonly kind: string = '@cspwatch/test.PackageError';
    override readonly name: string = 'PackageError';
  }
  class TimeoutError extends PackageError {
    static override readonly kind = '@cspwatch/test.TimeoutError';
    override readonly name = 'TimeoutError';
    readonly timeoutMs: number;
    constructor(timeoutMs: number, options?: { cause?: unknown }) {
      super('timeout', `took longer than ${timeoutMs} ms`, options);
      this.timeoutMs = timeoutMs;
    }
  }
  class OtherError extends PackageError {
    static override readonly kind = '@cspwatch/test.OtherError';
  }
  return { PackageError, TimeoutError, OtherError };
}

describe('CspwatchBaseError', () => {
  const one = family();
  const two = family();

  it('carries code, message, name, typed fields and the cause when given', () => {
    const cause = new Error('socket hang up');
    const error = new one.TimeoutError(50, { cause });
    expect(error).toMatchObject({ code: 'timeout', name: 'TimeoutError', timeoutMs: 50 });
    expect(error.message).toBe('took longer than 50 ms');
    expect(error.cause).toBe(cause);
    expect('cause' in new one.TimeoutError(50)).toBe(false);
    expect(error.stack).toContain('TimeoutError');
  });

  it('answers instanceof by kind, for its class and every ancestor, and nothing else', () => {
    const error = new one.TimeoutError(1);
    expect(error instanceof one.TimeoutError).toBe(true);
    expect(error instanceof one.PackageError).toBe(true);
    expect(error instanceof Error).toBe(true);
    expect(error instanceof one.OtherError).toBe(false);
    expect(new one.PackageError('bad_input', 'x') instanceof one.TimeoutError).toBe(false);
    expect(new Error('x') instanceof one.PackageError).toBe(false);
    expect({ code: 'timeout' } instanceof one.PackageError).toBe(false);
  });

  it('agrees across two copies of a package, both ways', () => {
    expect(new two.TimeoutError(1) instanceof one.TimeoutError).toBe(true);
    expect(new one.TimeoutError(1) instanceof two.PackageError).toBe(true);
    expect(new two.OtherError('bad_input', 'x') instanceof one.TimeoutError).toBe(false);
  });

  it('recognises an error of an earlier release, which set the same Symbol.for marker', () => {
    const earlier = Object.defineProperty(
      new Error('old'),
      Symbol.for('@cspwatch/test.PackageError'),
      {
        value: true,
      },
    );
    expect(earlier instanceof one.PackageError).toBe(true);
    expect(hasErrorKind(earlier, '@cspwatch/test.PackageError')).toBe(true);
    expect(earlier instanceof one.TimeoutError).toBe(false);
  });

  it('keeps its markers out of JSON and enumeration', () => {
    const error = new one.TimeoutError(7);
    expect(Object.keys(error)).not.toContain(Symbol.for('@cspwatch/test.TimeoutError'));
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      code: 'timeout',
      name: 'TimeoutError',
      timeoutMs: 7,
    });
  });

  it('falls back to the prototype chain for a class without a kind of its own', () => {
    class Unkinded extends CspwatchBaseError {}
    expect(new Unkinded('x', 'y') instanceof Unkinded).toBe(true);
    expect(new one.PackageError('bad_input', 'x') instanceof Unkinded).toBe(false);
    expect(hasErrorKind(null, 'x')).toBe(false);
    expect(hasErrorKind('@cspwatch/test.PackageError', '@cspwatch/test.PackageError')).toBe(false);
  });
});

describe('CspwatchIssuesError', () => {
  class InputError extends CspwatchIssuesError<'invalid_options' | 'unavailable'> {
    static readonly kind: string = '@cspwatch/test.InputError';
    override readonly name = 'InputError' as const;
  }

  it('keeps a frozen copy of the issues given, so the caller’s list stays its own', () => {
    const given = [issue('timeoutMs', 'out_of_range', 'must be an integer from 1 to 10')];
    const error = new InputError('invalid_options', formatIssues(given), { issues: given });
    expect(error.issues).toEqual(given);
    expect(error.issues).not.toBe(given);
    expect(Object.isFrozen(error.issues)).toBe(true);
    given.push(issue('retries', 'wrong_type', 'must be a number'));
    expect(error.issues).toHaveLength(1);
    expect(Object.isFrozen(given)).toBe(false);
  });

  it('has an empty, frozen list when no issues were given, and keeps the cause', () => {
    const cause = new Error('ECONNREFUSED');
    const error = new InputError('unavailable', 'down', { cause });
    expect(error.issues).toEqual([]);
    expect(Object.isFrozen(error.issues)).toBe(true);
    expect(error.cause).toBe(cause);
    expect('cause' in new InputError('unavailable', 'down')).toBe(false);
  });

  it('answers instanceof by kind like every cspwatch error, and by prototype for itself', () => {
    const error = new InputError('unavailable', 'down');
    expect(error).toBeInstanceOf(InputError);
    expect(error).toBeInstanceOf(CspwatchIssuesError);
    expect(error).toBeInstanceOf(CspwatchBaseError);
    expect(Object.assign(new Error('x'), { issues: [] }) instanceof CspwatchIssuesError).toBe(
      false,
    );
    expect(hasErrorKind(error, InputError.kind)).toBe(true);
  });
});
