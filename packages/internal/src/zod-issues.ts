/**
 * zod's issues as {@link Issue}s, for the packages that validate with zod. Typed by shape, so
 * this package imports no zod (and `@cspwatch/webhooks`, which bundles it, stays dependency-free).
 */
import { type Issue, type IssueCode, issue } from './issues';

/** The part of a zod issue this module reads. */
export interface ZodLikeIssue {
  /** zod's issue code, e.g. `invalid_type`, `too_small`, `unrecognized_keys`. */
  readonly code: string;
  /** Where in the input, as keys. */
  readonly path: readonly PropertyKey[];
  /** zod's (or the schema's own) message. */
  readonly message: string;
  /** For `unrecognized_keys`: the unknown keys. */
  readonly keys?: readonly string[];
}

const CODES: Record<string, IssueCode> = {
  invalid_type: 'wrong_type',
  too_small: 'out_of_range',
  too_big: 'out_of_range',
  unrecognized_keys: 'unknown_option',
};

/**
 * Converts zod issues: the path is dotted (`(options)` at the root), an unknown-keys issue
 * becomes one issue per key, and codes map to {@link IssueCode}s (`invalid` otherwise).
 */
export function issuesFromZod(issues: readonly ZodLikeIssue[], root = '(options)'): Issue[] {
  return issues.flatMap((zodIssue) => {
    const path = zodIssue.path.map(String).join('.');
    if (zodIssue.code === 'unrecognized_keys' && zodIssue.keys) {
      return zodIssue.keys.map((key) =>
        issue(path ? `${path}.${key}` : key, 'unknown_option', 'unknown option'),
      );
    }
    return [issue(path || root, CODES[zodIssue.code] ?? 'invalid', zodIssue.message)];
  });
}
