import { codePointLength, UNKNOWN_FIELD_MESSAGE } from '@cspwatch/contract';
import {
  checkInteger,
  type Issue,
  type IssueCode,
  isOptionsObject,
  issue,
  issuesFromZod,
} from '@cspwatch/internal';
import type * as z from 'zod/mini';
import { CspwatchInputError } from '../errors/input-error';
import type { CspwatchRequestOptions } from '../options/client-options';
import { checkRequestOptions } from '../options/resolve-options';

/*
 * The input rules of each call (docs/client-reference.md, "Input rules"), checked before any
 * request. Every problem is collected so that one error names every field to fix.
 */

/** Half of a UTF-16 surrogate pair on its own: cannot be encoded in a URL without changing it. */
const LONE_SURROGATE = /\p{Cs}/u;

const LONE_SURROGATE_MESSAGE = 'must be well-formed Unicode (it contains a lone surrogate)';

/** Says what length a string must have, in characters. */
function lengthRule(min: number, max: number): string {
  if (max === Number.POSITIVE_INFINITY)
    return min === 1 ? 'must not be empty' : `must be at least ${min} characters`;
  return min > 0 ? `must be ${min} to ${max} characters` : `must be at most ${max} characters`;
}

/** Collects field issues and throws them together. Internal. */
export class InputChecker {
  readonly issues: Issue[] = [];

  /** Records one problem. */
  add(path: string, code: IssueCode, message: string): void {
    this.issues.push(issue(path, code, message));
  }

  /** `workspaceId` must be non-empty and must not be a dot segment (`.` or `..`). */
  workspaceId(value: unknown): string {
    if (typeof value !== 'string' || value.length === 0) {
      const code = typeof value === 'string' ? 'required' : 'wrong_type';
      this.add('workspaceId', code, 'must be a non-empty string');
      return '';
    }
    if (LONE_SURROGATE.test(value)) {
      this.add('workspaceId', 'invalid', LONE_SURROGATE_MESSAGE);
      return '';
    }
    // `.` and `..` stay dot segments after encoding (URLs resolve them), so they are refused.
    // `%2e` forms are safe: encoding turns them into `%252e`, which is not a dot segment.
    if (value === '.' || value === '..') {
      this.add('workspaceId', 'invalid', 'must not be "." or ".."');
    }
    return encodeURIComponent(value);
  }

  /**
   * Validates `value` with a zod schema. An unknown field is named on its own path with the
   * message the service gives; a field gets only its first message (one says what to fix).
   */
  schema<T extends z.ZodMiniType>(schema: T, value: unknown): z.output<T> {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    for (const found of issuesFromZod(result.error.issues, 'input')) {
      if (found.code === 'unknown_option') {
        this.add(found.path, found.code, UNKNOWN_FIELD_MESSAGE);
      } else if (!this.issues.some((known) => known.path === found.path)) {
        this.add(found.path, found.code, found.message || 'is invalid');
      }
    }
    return undefined as z.output<T>;
  }

  /** An optional integer within [min, max]. */
  integer(path: string, value: unknown, min: number, max: number): void {
    checkInteger(this.issues, path, value, { min, max });
  }

  /** An optional string of at most `max` characters (`Infinity`: no bound) and at least `min`. */
  string(path: string, value: unknown, max: number, min = 0): void {
    if (value === undefined) return;
    if (typeof value !== 'string') {
      this.add(path, 'wrong_type', 'must be a string');
    } else if (LONE_SURROGATE.test(value)) {
      this.add(path, 'invalid', LONE_SURROGATE_MESSAGE);
    } else if (codePointLength(value) < min || codePointLength(value) > max) {
      this.add(path, 'out_of_range', lengthRule(min, max));
    }
  }

  /** The optional options argument of a call: an object, or `undefined` for none. */
  options<T extends object>(value: T | undefined): Partial<T> {
    if (value === undefined) return {};
    if (!isOptionsObject(value)) {
      this.add('options', 'not_an_object', 'must be an object (or left out)');
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
      this.add('signal', 'wrong_type', 'must be an AbortSignal');
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
