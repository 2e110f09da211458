import { codePointLength } from '@cspwatch/contract';
import type * as z from 'zod/mini';
import { type CspwatchFieldIssue, CspwatchInputError } from './errors';
import { type CspwatchRequestOptions, checkRequestOptions } from './options';

/*
 * Input rules of spec section 8, checked before any request. Every problem is collected
 * so that one error names every field to fix.
 */

/** Half of a UTF-16 surrogate pair on its own: cannot be encoded in a URL without changing it. */
const LONE_SURROGATE = /\p{Cs}/u;

const LONE_SURROGATE_MESSAGE = 'must be well-formed Unicode (it contains a lone surrogate)';

/** The message of a field the API does not document. */
const UNKNOWN_FIELD = 'is not a known field: remove it or check its spelling';

/** Collects field issues and throws them together. Internal. */
export class InputChecker {
  readonly issues: CspwatchFieldIssue[] = [];

  /** Records one problem. */
  add(path: string, message: string): void {
    this.issues.push({ path, message });
  }

  /** `workspaceId` must be non-empty and must not be a dot segment (`.` or `..`). */
  workspaceId(value: unknown): string {
    if (typeof value !== 'string' || value.length === 0) {
      this.add('workspaceId', 'must be a non-empty string');
      return '';
    }
    if (LONE_SURROGATE.test(value)) {
      this.add('workspaceId', LONE_SURROGATE_MESSAGE);
      return '';
    }
    // `.` and `..` stay dot segments after encoding (URLs resolve them), so they are refused.
    // `%2e` forms are safe: encoding turns them into `%252e`, which is not a dot segment.
    if (value === '.' || value === '..') {
      this.add('workspaceId', 'must not be "." or ".."');
    }
    return encodeURIComponent(value);
  }

  /** Validates `value` with a zod schema, naming paths under `prefix`. */
  schema<T extends z.ZodMiniType>(schema: T, value: unknown, prefix: string): z.output<T> {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) {
      const at = [prefix, ...issue.path.map(String)].filter(Boolean);
      if (issue.code === 'unrecognized_keys') {
        // Name each unknown field, so a typo (`nmae`) is found rather than dropped silently.
        for (const key of issue.keys) this.add([...at, key].join('.'), UNKNOWN_FIELD);
        continue;
      }
      const path = at.join('.') || 'input';
      // One message per field is enough to say what to fix.
      if (!this.issues.some((known) => known.path === path)) {
        this.add(path, issue.message || 'is invalid');
      }
    }
    return undefined as z.output<T>;
  }

  /** An optional integer within [min, max]. */
  integer(path: string, value: unknown, min: number, max: number): void {
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      this.add(path, `must be an integer from ${min} to ${max}`);
    }
  }

  /** An optional string of at most `max` characters (and at least `min`). */
  string(path: string, value: unknown, max: number, min = 0): void {
    if (value === undefined) return;
    if (typeof value !== 'string') {
      this.add(path, 'must be a string');
    } else if (LONE_SURROGATE.test(value)) {
      this.add(path, LONE_SURROGATE_MESSAGE);
    } else if (codePointLength(value) < min || codePointLength(value) > max) {
      this.add(
        path,
        min > 0 ? `must be ${min} to ${max} characters` : `must be at most ${max} characters`,
      );
    }
  }

  /** The optional options argument of a call: an object, or `undefined` for none. */
  options<T extends object>(value: T | undefined): Partial<T> {
    if (value === undefined) return {};
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.add('options', 'must be an object (or left out)');
      return {};
    }
    return value;
  }

  /** The per-call options: `timeout`, `maxRetries`, `headers` and `signal`. */
  requestOptions(options: CspwatchRequestOptions): void {
    checkRequestOptions(this.issues, options);
    const { signal } = options as { signal?: unknown };
    const looksLikeSignal =
      typeof signal === 'object' &&
      signal !== null &&
      typeof (signal as AbortSignal).aborted === 'boolean' &&
      typeof (signal as AbortSignal).addEventListener === 'function';
    if (signal !== undefined && !looksLikeSignal) {
      this.add('signal', 'must be an AbortSignal');
    }
  }

  /** The {@link CspwatchInputError} naming every recorded issue. */
  error(): CspwatchInputError {
    return new CspwatchInputError(this.issues);
  }

  /** Throws a {@link CspwatchInputError} naming every recorded issue, if any. */
  throwIfAny(): void {
    if (this.issues.length > 0) throw this.error();
  }
}
