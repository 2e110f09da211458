/**
 * The one convention of usage errors in the cspwatch CLIs: exit status 2 and exactly one line,
 * `error: <flag> <what to fix>; see <command> --help`, that never echoes a value which could be
 * a secret.
 */

/** A mistake in the command line: one line naming the flag and the fix, exit status 2. */
export class UsageError extends Error {
  /** Always `'UsageError'`. */
  override readonly name = 'UsageError';
}

/** Exit status of a usage error. */
export const USAGE_EXIT_CODE = 2;

/**
 * The line printed for a usage error: one line whatever `message` holds, with the pointer to
 * the command's help.
 *
 * @example
 * ```ts
 * usageErrorLine('cspwatch-mock', '--port must be an integer from 0 to 65535 (got "abc")');
 * // 'error: --port must be an integer from 0 to 65535 (got "abc"); see cspwatch-mock --help\n'
 * ```
 */
export function usageErrorLine(command: string, message: string): string {
  const oneLine = message
    .replace(/\s*\n\s*/g, '; ')
    .trim()
    .replace(/[.;]$/, '');
  return `error: ${oneLine}; see ${command} --help\n`;
}

/**
 * A value shown back in an error (`(got "abc")`) only when it cannot be a secret or a URL:
 * short, and letters, digits, `.`, `+`, `-` only. Otherwise nothing is shown.
 */
export function gotValue(value: string): string {
  return /^[\w.+-]{1,12}$/.test(value) ? ` (got ${JSON.stringify(value)})` : '';
}

/** `--flag` when what the user typed looks like a flag name; never a pasted value. */
const flagName = (typed: string): string =>
  /^--?[A-Za-z][\w-]{0,40}$/.test(typed) ? typed : '(not shown)';

/**
 * Rewrites an error of `node:util` `parseArgs` (strict) as a usage error message that names the
 * flag; returns `undefined` for any other error.
 */
export function fromParseArgsError(error: unknown): UsageError | undefined {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' || typeof message !== 'string') return undefined;
  const typed = /'([^']*)'/.exec(message)?.[1] ?? '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new UsageError(`unknown option ${flagName(typed)}`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const flag = flagName(typed.split(' ')[0] ?? '');
      return new UsageError(
        message.includes('argument missing')
          ? `${flag} needs a value, e.g. ${flag} <value>`
          : `${flag} takes no value; give it alone`,
      );
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      // A stray argument may be a secret pasted in the wrong place: never echo it.
      return new UsageError(
        'unexpected argument (not shown); every value follows its flag, e.g. --url <url>',
      );
    default:
      return undefined;
  }
}
