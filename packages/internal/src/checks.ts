/**
 * The option checks every package uses. Each one reads one optional field and, when it breaks
 * its rule, pushes one {@link Issue} worded the same way in every package. `undefined` always
 * passes (a missing optional field takes its default); use {@link checkRequired} first for a
 * required one.
 */
import { describeValue } from './describe-value';
import { type Issue, issue } from './issues';

/** Bounds of {@link checkInteger}. */
export interface IntegerBounds {
  /** Smallest allowed value. */
  readonly min: number;
  /** Largest allowed value. */
  readonly max: number;
  /** Unit added to the message, e.g. `ms`. */
  readonly unit?: string;
}

/**
 * How an integer rule is named in messages: `an integer from 0 to 60000 (ms)`. With
 * {@link mustBe}, the words of the checks for the zod rules of the packages that validate with
 * zod. The checks keep their words inline (a package that bundles only them carries no extra
 * code); a test holds both to the same text.
 */
export const integerRule = ({ min, max, unit }: IntegerBounds): string =>
  `an integer from ${min} to ${max}${unit ? ` (${unit})` : ''}`;

/**
 * A refused value, worded as the checks word it: `must be <rule>, got <value>` (the value shown
 * only when it is a number, so a misplaced secret is never printed).
 */
export const mustBe = (rule: string, value: unknown): string =>
  `must be ${rule}, got ${describeValue(value)}`;

/** Pushes `required` when `value` is `undefined`; returns whether it was present. */
export function checkRequired(
  issues: Issue[],
  path: string,
  value: unknown,
  what: string,
): boolean {
  if (value !== undefined) return true;
  issues.push(issue(path, 'required', `is required: ${what}`));
  return false;
}

/** An optional safe integer within `bounds`. */
export function checkInteger(
  issues: Issue[],
  path: string,
  value: unknown,
  { min, max, unit }: IntegerBounds,
): void {
  if (value === undefined) return;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max)
    return;
  const range = `an integer from ${min} to ${max}${unit ? ` (${unit})` : ''}`;
  const code = Number.isInteger(value) ? 'out_of_range' : 'wrong_type';
  issues.push(issue(path, code, `must be ${range}, got ${describeValue(value)}`));
}

/** An optional boolean. */
export function checkBoolean(issues: Issue[], path: string, value: unknown): void {
  if (value === undefined || typeof value === 'boolean') return;
  issues.push(issue(path, 'wrong_type', `must be true or false, got ${describeValue(value)}`));
}

/** An optional function. */
export function checkFunction(issues: Issue[], path: string, value: unknown): void {
  if (value === undefined || typeof value === 'function') return;
  issues.push(issue(path, 'wrong_type', `must be a function, got ${describeValue(value)}`));
}

/** An optional string that is not empty (nor only spaces). */
export function checkNonEmptyString(issues: Issue[], path: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value === 'string' && value.trim() !== '') return;
  const got = typeof value === 'string' ? 'an empty string' : describeValue(value);
  issues.push(
    issue(
      path,
      typeof value === 'string' ? 'invalid' : 'wrong_type',
      `must be a non-empty string, got ${got}`,
    ),
  );
}

/** Whether `value` is a plain options object (not null, not an array). */
export function isOptionsObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Pushes `not_an_object` unless `value` is an object; returns whether it is. `shape` tells
 * what belongs there, e.g. `{ maxEntries, maxAgeMs }`.
 */
export function checkObject(issues: Issue[], path: string, value: unknown, shape: string): boolean {
  if (isOptionsObject(value)) return true;
  issues.push(
    issue(path, 'not_an_object', `must be an object ${shape}, got ${describeValue(value)}`),
  );
  return false;
}

/**
 * Pushes `unknown_option` for every key of `options` not in `known`, suggesting the known key
 * it most likely means (a typo in a security option must be loud, not ignored).
 */
export function checkUnknownKeys(
  issues: Issue[],
  options: object,
  known: Iterable<string>,
  prefix = '',
): void {
  const names = [...known];
  for (const key of Object.keys(options)) {
    if (names.includes(key)) continue;
    const near = closest(key, names);
    issues.push(
      issue(
        `${prefix}${key}`,
        'unknown_option',
        near ? `unknown option (did you mean \`${near}\`?)` : 'unknown option',
      ),
    );
  }
}

function closest(key: string, names: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = 3;
  for (const name of names) {
    const distance = editDistance(lower, name.toLowerCase());
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance; 3 (too far to suggest) as soon as the lengths alone differ by more. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length]!;
}
