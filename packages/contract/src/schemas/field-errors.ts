import type * as z from 'zod/mini';

/** The message of a field the API does not define, at any level of a request body. */
export const UNKNOWN_FIELD_MESSAGE = 'is not a known field: remove it or check its spelling';

/** One invalid field: its dot path (`settings.allowedOrigins.0`) and what to fix. */
export interface FieldError {
  /** The field as a dot path; `prefix` alone (or `(body)`) when the value as a whole is wrong. */
  path: string;
  /** What is wrong and what is expected. */
  message: string;
}

/**
 * Turns zod issues into one error per field, with dot paths: an unknown key is named on its
 * own path, and a field gets only its first message (one is enough to say what to fix).
 *
 * @param prefix - put before every path, e.g. `input`; the whole value is named `(body)` without one
 */
export function toFieldErrors(issues: readonly z.core.$ZodIssue[], prefix = ''): FieldError[] {
  const errors: FieldError[] = [];
  const add = (segments: PropertyKey[], message: string): void => {
    const path = [prefix, ...segments.map(String)].filter(Boolean).join('.') || '(body)';
    if (!errors.some((known) => known.path === path)) errors.push({ path, message });
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key], UNKNOWN_FIELD_MESSAGE);
    } else {
      add(issue.path, issue.message);
    }
  }
  return errors;
}
