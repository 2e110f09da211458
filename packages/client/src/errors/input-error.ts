import { formatIssues, type Issue } from '@cspwatch/internal';
import { CspwatchError } from './cspwatch-error';

/**
 * One invalid field of a call or of the client options: the issue type every cspwatch
 * package uses (`path`, `code`, `message`), under the name 0.1.0 gave it.
 */
export type CspwatchFieldIssue = Issue;

/**
 * An argument or option breaks a documented rule; nothing was sent. `fields` names each.
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchInputError) for (const f of error.fields) log(f.path, f.message);
 * ```
 */
export class CspwatchInputError extends CspwatchError {
  /** The marker of this class, recognised across copies of the package. */
  static override readonly kind: string = '@cspwatch/client.CspwatchInputError';
  /** The class name, `'CspwatchInputError'`. */
  override readonly name = 'CspwatchInputError' as const;
  /** `invalid_options` from `createCspwatchClient`, `invalid_input` from a call. */
  override readonly code: 'invalid_input' | 'invalid_options';
  /** Each offending field with its problem. */
  readonly fields: readonly CspwatchFieldIssue[];

  /** Builds the message from the field list. */
  constructor(
    fields: readonly CspwatchFieldIssue[],
    code: 'invalid_input' | 'invalid_options' = 'invalid_input',
  ) {
    const what = code === 'invalid_options' ? 'Invalid cspwatch client options' : 'Invalid input';
    super(`${what}: ${formatIssues(fields)}`, code);
    this.code = code;
    this.fields = fields;
  }
}
