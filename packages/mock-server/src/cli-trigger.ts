/**
 * `cspwatch-mock trigger`: sends one signed alert to a local handler and prints the outcome,
 * like `stripe trigger`. The secret is read from an environment variable, never from the
 * command line, and never printed.
 */
import { readFileSync } from 'node:fs';
import type { parseArgs as ParseArgs } from 'node:util';
import { redactUrls } from '@cspwatch/contract';
import type { BuildAlertInput } from '@cspwatch/webhook-sender';
import { sampleAlertInput, type TriggerResult } from './trigger';

/** The `--help` text of `cspwatch-mock trigger`. */
export const TRIGGER_USAGE = `Usage: cspwatch-mock trigger --to <url> --secret-env <NAME> [alert options]

Signs one csp-violation:new-type alert exactly like the service does and POSTs it to
<url> (loopback handlers welcome), then prints what the handler answered.

Required:
  --to <url>               the handler, e.g. http://localhost:3000/webhooks
  --secret-env <NAME>      environment variable holding the signing secret

Alert (default: a sample alert):
  --directive <name>       effective directive of the finding (default script-src-elem)
  --origin <origin>        blocked origin of the finding (default https://cdn.evil.example)
  --rule <name>            rule name (default "New violation types")
  --website-url <url>      website URL (default https://shop.example.com)
  --alert-file <path>      a JSON file of buildAlert input instead (rule, website,
                           findings, window, dashboardUrl); excludes the flags above
  --timeout <ms>           time allowed for the delivery (default 10000)
  -h, --help               show this help

Exit status: 0 when the handler answered 2xx, 1 when the delivery failed, 2 on usage errors.
`;

/** What `trigger` was asked to do. */
export type TriggerParseResult =
  | { kind: 'help' }
  | { kind: 'error'; message: string }
  | { kind: 'trigger'; to: string; secret: string; input: BuildAlertInput; timeoutMs: number };

/** Parses `trigger`'s flags; reads the secret from `env` and the alert file from disk. */
export function parseTriggerOptions(
  argv: string[],
  parseArgs: typeof ParseArgs,
  env: Record<string, string | undefined>,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): TriggerParseResult {
  const text = { type: 'string' } as const;
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        to: text,
        'secret-env': text,
        directive: text,
        origin: text,
        rule: text,
        'website-url': text,
        'alert-file': text,
        timeout: text,
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { kind: 'help' };
  const fail = (message: string): TriggerParseResult => ({ kind: 'error', message });
  const { to, directive, origin, rule } = values as Record<string, string | undefined>;
  const secretEnv = values['secret-env'] as string | undefined;
  const alertFile = values['alert-file'] as string | undefined;
  const websiteUrl = values['website-url'] as string | undefined;
  if (!to) return fail('--to <url> is required, e.g. --to http://localhost:3000/webhooks.');
  // Not echoed, and a host is required: `user:password@host` parses as a URL of scheme `user:`
  // whose path holds the password, which no URL rule could tell from a path to print.
  if (!URL.canParse(to) || new URL(to).host === '')
    return fail('--to must be an absolute URL, e.g. --to http://localhost:3000/webhooks.');
  if (!secretEnv)
    return fail('--secret-env <NAME> is required: the variable that holds the secret.');
  const secret = env[secretEnv];
  if (!secret) return fail(`The environment variable ${secretEnv} is not set or empty.`);
  const timeout = (values.timeout as string | undefined) ?? '10000';
  if (!/^\d{1,6}$/.test(timeout) || Number(timeout) < 1)
    return fail('--timeout must be a whole number of milliseconds from 1 to 999999.');
  let input: BuildAlertInput;
  if (alertFile !== undefined) {
    if (directive ?? origin ?? rule ?? websiteUrl)
      return fail('--alert-file excludes --directive, --origin, --rule and --website-url.');
    try {
      input = JSON.parse(readFile(alertFile)) as BuildAlertInput;
    } catch (error) {
      return fail(`--alert-file: ${error instanceof Error ? error.message : String(error)}`);
    }
  } else {
    input = sampleAlertInput({
      ...(directive === undefined ? {} : { directive }),
      ...(origin === undefined ? {} : { origin }),
      ...(rule === undefined ? {} : { rule }),
      ...(websiteUrl === undefined ? {} : { websiteUrl }),
    });
  }
  return { kind: 'trigger', to, secret, input, timeoutMs: Number(timeout) };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Text made safe for a terminal: control characters (escape sequences included) become `?`. */
export const printable = (text: string): string => text.replace(CONTROL, '?');

/**
 * The outcome as lines for the terminal: the URL without userinfo or query values (the result's
 * texts already are), text from the handler stripped of control characters.
 */
export function describeTrigger(to: string, { alert, result }: TriggerResult): string {
  const lines = [`Sent ${alert.eventType} alert ${alert.id} to ${printable(redactUrls(to))}`];
  if (result.ok) lines.push(`  ✔ ${result.status} in ${result.durationMs} ms`);
  else {
    const status = result.status === null ? '' : ` ${result.status}`;
    const detail = result.rejection?.message ?? result.error ?? '';
    lines.push(`  ✘ ${result.cause}${status}${detail ? `: ${detail}` : ''}`);
    if (result.location) lines.push(`  location: ${printable(result.location)} (not followed)`);
  }
  if (result.responseExcerpt)
    lines.push(`  response: ${result.responseExcerpt.replace(CONTROL, ' ').slice(0, 300)}`);
  return `${lines.join('\n')}\n`;
}
