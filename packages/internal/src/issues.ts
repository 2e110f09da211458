/**
 * The one shape of "what is wrong with this input", used by every package's errors.
 *
 * Known codes:
 * - `required`: the field is missing.
 * - `wrong_type`: the field has the wrong type (a string where a number belongs).
 * - `out_of_range`: a number outside its bounds, or a string or list of the wrong length.
 * - `unknown_option`: a key the options object does not have (often a typo).
 * - `not_an_object`: the options (or a nested group) are not an object.
 * - `invalid`: any other broken rule; the message says which.
 *
 * Packages may add their own codes (the sender's `secret_too_short`, for example).
 */
export type IssueCode =
  | 'required'
  | 'wrong_type'
  | 'out_of_range'
  | 'unknown_option'
  | 'not_an_object'
  | 'invalid'
  | (string & {});

/** One problem found in options or input. */
export interface Issue {
  /** Dotted path of the field, e.g. `timeoutMs` or `history.maxEntries`; `(options)` for the whole object. */
  readonly path: string;
  /** What kind of problem, to branch on; see {@link IssueCode}. */
  readonly code: IssueCode;
  /** A sentence (without the path) saying what to fix. Never quotes a secret. */
  readonly message: string;
}

/** Builds an issue. */
export function issue(path: string, code: IssueCode, message: string): Issue {
  return { path, code, message };
}

/** `path: message; path: message`, the one way issues are written into an error message. */
export function formatIssues(issues: readonly Issue[]): string {
  return issues.map(({ path, message }) => `${path}: ${message}`).join('; ');
}
