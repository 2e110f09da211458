/**
 * Argument handling shared by the CLI's commands: the usage error (exit 2), the options both
 * commands take, and the checks of their values, each naming the flag the user typed.
 */
import type { ParseArgsConfig } from 'node:util';
import type { WebhookSenderError } from '../errors';

/** A mistake in the command line: printed with a pointer to `--help`, exit status 2. */
export class UsageError extends Error {}

/** Options every sending command takes. */
export const COMMON_OPTIONS = {
  url: { type: 'string' },
  secret: { type: 'string' },
  'secret-env': { type: 'string' },
  'secret-stdin': { type: 'boolean' },
  'allow-loopback': { type: 'boolean' },
  timeout: { type: 'string' },
  json: { type: 'boolean' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/** Joins `--option -5` into `--option=-5`: parseArgs would take `-5` for a flag of its own. */
export function joinNegativeValues(
  args: readonly string[],
  options: NonNullable<ParseArgsConfig['options']>,
): string[] {
  const takesValue = (arg: string) => options[arg.replace(/^--/, '')]?.type === 'string';
  const joined: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    const next = args[index + 1];
    if (arg.startsWith('--') && takesValue(arg) && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${arg}=${next}`);
      index += 1;
    } else joined.push(arg);
  }
  return joined;
}

/** The `--url` value, checked to be an absolute URL with a host (the target policy judges it later). */
export function checkUrlArg(url: string | undefined): string {
  if (!url) throw new UsageError('--url is required');
  // Never echoed; and a host is required, since `user:password@host` parses as a URL of scheme
  // `user:` whose path holds the password, which no URL rule could tell from a path to print.
  if (!URL.canParse(url) || new URL(url).host === '') {
    throw new UsageError('--url must be an absolute URL, e.g. https://hooks.example.com/cspwatch');
  }
  return url;
}

/** The `--timeout` value in ms, 10000 when absent. */
export function checkTimeoutArg(timeout: string | undefined): number {
  const timeoutMs = timeout === undefined ? 10_000 : Number(timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
    throw new UsageError('--timeout must be a positive integer (ms)');
  return timeoutMs;
}

/** The flag behind each sender option the CLI sets, so errors name what the user typed. */
const OPTION_FLAGS: Readonly<Record<string, string>> = {
  timeoutMs: '--timeout',
  dangerouslyAllowLoopback: '--allow-loopback',
};

/** A sender's option error in the CLI's words: `--timeout must be …`, not `timeoutMs: …`. */
export function describeOptionIssues(error: WebhookSenderError): string {
  return error.issues
    .map((issue) => `${OPTION_FLAGS[issue.path] ?? issue.path} ${issue.message}`)
    .join('; ');
}
