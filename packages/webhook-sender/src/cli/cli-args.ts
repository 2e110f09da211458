/**
 * The delivery flags every sending command of the cspwatch CLIs takes (`cspwatch-webhook
 * send-test` and `send`, `cspwatch-mock trigger`), and the checks of their values, each
 * naming the flag the user typed.
 */
import type { ParseArgsConfig } from 'node:util';
import { isWebhookSenderError, type WebhookSenderError } from '../errors';
import { resolveSenderOptions, type WebhookSenderOptions } from '../options';
import { gotValue, UsageError } from './usage-error';

/** The flags of a delivery: where, the secret, the loopback switch, the checks, the output. */
export const DELIVERY_OPTIONS = {
  url: { type: 'string' },
  secret: { type: 'string' },
  'secret-env': { type: 'string' },
  'secret-stdin': { type: 'boolean' },
  'allow-loopback': { type: 'boolean' },
  timeout: { type: 'string' },
  json: { type: 'boolean' },
  replay: { type: 'boolean' },
  tamper: { type: 'boolean' },
  stale: { type: 'boolean' },
  unsigned: { type: 'boolean' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/** The `--help` lines of the delivery flags, the same in every command that takes them. */
export const DELIVERY_USAGE = `Where and how (the same in cspwatch-webhook and cspwatch-mock trigger):
  --url <url>          the receiver, e.g. http://127.0.0.1:3000/webhooks (required)
  --allow-loopback     allow 127.0.0.0/8 and ::1 (and http: for them), for a receiver on
                       this machine; other private addresses stay refused
  --timeout <ms>       total time allowed for each delivery (default 10000)
  --json               print the delivery result as JSON (an array with --replay)

Checks of the receiver (at most one; exit 0 when it refuses with a 4xx, as it must):
  --replay             send the same signed delivery twice: the first must be accepted,
                       the second refused (replayed_delivery, 409)
  --tamper             change the body after signing (signature_mismatch)
  --stale              sign with a timestamp an hour old (timestamp_too_old)
  --unsigned           send no signature headers (missing_header)

Secret (exactly one; default: --secret-env CSPWATCH_WEBHOOK_SECRET):
  --secret-env <VAR>   read the signing secret from environment variable VAR
  --secret-stdin       read the signing secret from standard input
  --secret <secret>    the secret itself (discouraged: visible in shell history and ps)

Exit status: 0 when the receiver answered as it should (2xx for a delivery, 4xx for a check),
1 when it did not or could not be reached, 2 on usage errors.`;

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
  if (!url) throw new UsageError('--url is required, e.g. --url http://127.0.0.1:3000/webhooks');
  // Never echoed; and a host is required, since `user:password@host` parses as a URL of scheme
  // `user:` whose path holds the password, which no URL rule could tell from a path to print.
  if (!URL.canParse(url) || new URL(url).host === '') {
    throw new UsageError('--url must be an absolute URL, e.g. https://hooks.example.com/cspwatch');
  }
  return url;
}

/** The `--timeout` value in ms (absent: the sender's default); its range is the sender's rule. */
export function timeoutArg(timeout: string | undefined): number | undefined {
  if (timeout === undefined) return undefined;
  if (!/^\d+$/.test(timeout))
    throw new UsageError(`--timeout must be a whole number of milliseconds${gotValue(timeout)}`);
  return Number(timeout);
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

/** Validates the sender options the flags give, now, so a bad value is a usage error. */
export function checkSenderOptions(options: WebhookSenderOptions): WebhookSenderOptions {
  try {
    resolveSenderOptions(options);
  } catch (error) {
    if (isWebhookSenderError(error) && error.code === 'invalid_options')
      throw new UsageError(describeOptionIssues(error));
    throw error;
  }
  return options;
}
