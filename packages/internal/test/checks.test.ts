import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkBoolean,
  checkFunction,
  checkInteger,
  checkNonEmptyString,
  checkObject,
  checkRequired,
  checkUnknownKeys,
  describeValue,
  formatIssues,
  type Issue,
  integerRule,
  mustBe,
} from '../src/index';

function run(check: (issues: Issue[]) => void): Issue[] {
  const issues: Issue[] = [];
  check(issues);
  return issues;
}

describe('checkInteger', () => {
  const bounds = { min: 1, max: 600_000, unit: 'ms' };

  it('passes exactly the safe integers within bounds, and undefined', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer(), fc.double(), fc.constant(Number.MAX_SAFE_INTEGER + 2)),
        (value) => {
          const ok = Number.isSafeInteger(value) && value >= 1 && value <= 600_000;
          expect(run((issues) => checkInteger(issues, 'timeoutMs', value, bounds))).toHaveLength(
            ok ? 0 : 1,
          );
        },
      ),
    );
    expect(run((issues) => checkInteger(issues, 'timeoutMs', undefined, bounds))).toEqual([]);
  });

  it('says the range, the unit and what it got, with a code to branch on', () => {
    expect(run((issues) => checkInteger(issues, 'timeoutMs', 0, bounds))).toEqual([
      {
        path: 'timeoutMs',
        code: 'out_of_range',
        message: 'must be an integer from 1 to 600000 (ms), got 0',
      },
    ]);
    expect(run((issues) => checkInteger(issues, 'retries', '3', { min: 0, max: 10 }))).toEqual([
      {
        path: 'retries',
        code: 'wrong_type',
        message: 'must be an integer from 0 to 10, got a string',
      },
    ]);
  });
});

describe('the other checks', () => {
  it('accept their type or undefined, and name the type they got otherwise', () => {
    expect(run((i) => checkBoolean(i, 'a', true))).toEqual([]);
    expect(run((i) => checkBoolean(i, 'a', 'yes'))[0]).toMatchObject({
      code: 'wrong_type',
      message: 'must be true or false, got a string',
    });
    expect(run((i) => checkFunction(i, 'now', () => 1))).toEqual([]);
    expect(run((i) => checkFunction(i, 'now', 5))[0]?.message).toBe('must be a function, got 5');
    expect(run((i) => checkNonEmptyString(i, 'userAgent', '  '))[0]).toMatchObject({
      code: 'invalid',
    });
    expect(run((i) => checkNonEmptyString(i, 'userAgent', 'ok'))).toEqual([]);
    expect(run((i) => checkObject(i, 'history', [], '{ maxEntries }'))[0]).toEqual({
      path: 'history',
      code: 'not_an_object',
      message: 'must be an object { maxEntries }, got an array',
    });
    expect(
      run((i) => expect(checkRequired(i, 'connection', undefined, 'a redis:// URL')).toBe(false)),
    ).toEqual([{ path: 'connection', code: 'required', message: 'is required: a redis:// URL' }]);
  });

  it('never print the content of a string, so a misplaced secret stays unprinted', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (secret) => {
        const issues = run((i) => {
          checkInteger(i, 'a', secret, { min: 0, max: 1 });
          checkBoolean(i, 'b', secret);
          checkFunction(i, 'c', secret);
          checkObject(i, 'd', secret, '{}');
        });
        expect(issues).toHaveLength(4);
        // Named by its type only: `got ${secret}` would be a weaker oracle (the secret `a` is in `got a string`).
        for (const { message } of issues) expect(message).toMatch(/, got a string$/);
        expect(describeValue(secret)).toBe('a string');
      }),
    );
  });
});

describe('describeValue', () => {
  it('shows a number, null and undefined, and names any other value by its type only', () => {
    expect(
      [
        42,
        -0.5,
        Number.NaN,
        null,
        undefined,
        [1],
        {},
        'secret',
        true,
        () => 1,
        Symbol('s'),
        1n,
      ].map(describeValue),
    ).toEqual([
      '42',
      '-0.5',
      'NaN',
      'null',
      'undefined',
      'an array',
      'an object',
      'a string',
      'a boolean',
      'a function',
      'a symbol',
      'a bigint',
    ]);
  });
});

describe('mustBe and integerRule', () => {
  it('word a refused value exactly as the checks do', () => {
    fc.assert(
      fc.property(
        fc.anything(),
        fc.integer({ min: -5, max: 5 }),
        fc.constantFrom(undefined, 'ms', 's'),
        (value, min, unit) => {
          const bounds = { min, max: min + 3, ...(unit ? { unit } : {}) };
          const issues = run((i) => {
            checkInteger(i, 'a', value, bounds);
            checkBoolean(i, 'b', value);
            checkFunction(i, 'c', value);
            checkObject(i, 'd', value, '{ x }');
          });
          const expected: Record<string, string> = {
            a: mustBe(integerRule(bounds), value),
            b: mustBe('true or false', value),
            c: mustBe('a function', value),
            d: mustBe('an object { x }', value),
          };
          for (const { path, message } of issues) expect(message).toBe(expected[path]);
        },
      ),
    );
    expect(mustBe(integerRule({ min: 0, max: 60_000, unit: 'ms' }), -5)).toBe(
      'must be an integer from 0 to 60000 (ms), got -5',
    );
  });
});

describe('checkUnknownKeys', () => {
  const known = ['timeoutMs', 'connectTimeoutMs', 'store', 'dangerouslyAllowLoopback'];

  it('flags each unknown key once, and suggests the known key it most likely means', () => {
    expect(
      run((i) =>
        checkUnknownKeys(
          i,
          { timeoutMS: 1, store: {}, dangerouslyAllowLoopbak: true, zzz: 1 },
          known,
        ),
      ),
    ).toEqual([
      {
        path: 'timeoutMS',
        code: 'unknown_option',
        message: 'unknown option (did you mean `timeoutMs`?)',
      },
      {
        path: 'dangerouslyAllowLoopbak',
        code: 'unknown_option',
        message: 'unknown option (did you mean `dangerouslyAllowLoopback`?)',
      },
      { path: 'zzz', code: 'unknown_option', message: 'unknown option' },
    ]);
    expect(
      run((i) => checkUnknownKeys(i, { maxEntries: 1, maxEntrys: 2 }, ['maxEntries'], 'history.')),
    ).toEqual([
      {
        path: 'history.maxEntrys',
        code: 'unknown_option',
        message: 'unknown option (did you mean `maxEntries`?)',
      },
    ]);
  });

  it('suggests only a key within two edits, the nearest one', () => {
    const suggest = (key: string, names: string[]) =>
      run((i) => checkUnknownKeys(i, { [key]: 1 }, names))[0]?.message;
    expect(suggest('stoer', ['store'])).toBe('unknown option (did you mean `store`?)');
    expect(suggest('sxoxe', ['store'])).toBe('unknown option (did you mean `store`?)');
    expect(suggest('sxxxe', ['store'])).toBe('unknown option');
    expect(suggest('st', ['store'])).toBe('unknown option');
    expect(suggest('prefxi', ['prefixes', 'prefix'])).toBe(
      'unknown option (did you mean `prefix`?)',
    );
  });

  it('passes every object whose keys are all known', () => {
    fc.assert(
      fc.property(fc.subarray(known), (keys) => {
        const options = Object.fromEntries(keys.map((key) => [key, 1]));
        expect(run((i) => checkUnknownKeys(i, options, known))).toEqual([]);
      }),
    );
  });
});

describe('formatIssues', () => {
  it('writes path: message pairs, in order', () => {
    expect(
      formatIssues([
        { path: 'a', code: 'invalid', message: 'is wrong' },
        { path: 'b.c', code: 'required', message: 'is required' },
      ]),
    ).toBe('a: is wrong; b.c: is required');
  });
});
