import type { parseArgs as ParseArgs } from 'node:util';
import { fromParseArgsError } from '@cspwatch/webhook-sender/cli';
import { isMockServerError, type MockServerError } from '../errors';
import type { MockFaultOptions } from '../rules/faults';
import {
  checkMockServerOptions,
  isLoopbackHost,
  type MockRequestLogEntry,
  type MockServerOptions,
} from '../transports/node-server';

/** The `--help` text of `cspwatch-mock`. */
export const USAGE = `Usage: cspwatch-mock [options]
       cspwatch-mock trigger --url <url> [--allow-loopback] [alert options]

Starts the cspwatch mock service (REST API, alert flow, webhook inbox, control API
under /_mock/ and the inbox page at /_mock/) and prints its URL, seeded bearer
tokens and workspace ids. Ctrl-C stops it. \`trigger --help\` describes trigger.

Bound beyond loopback (e.g. --host 0.0.0.0), the control API needs a control
token: set CSPWATCH_MOCK_CONTROL_TOKEN, or one is made and printed at start.

Options:
  --port <n>                   port to listen on (default 4010; 0 picks a free one)
  --host <address>             address to listen on (default 127.0.0.1)
  --seed <n>                   seed of the deterministic fixtures (default 1)
  --api-keys <n>               API keys seeded in the main workspace (default 60)
  --website-limit <n>          website limit of the main workspace (default 10)
  --latency <ms>               add latency to every REST response (default 0)
  --rate-limit-every <n>       answer every Nth REST request with 429 (default off)
  --retry-after <s>            Retry-After of those 429s (default 1)
  --server-error-rate <0..1>   share of REST requests answered with a 5xx (default 0)
  --server-error-status <n>    status of injected 5xx (default 503)
  --drop-connection-rate <0..1> share of REST requests whose connection is dropped (default 0)
  --scenario <file.json>       seed this scenario instead of the built-in fixtures
  --dangerously-allow-loopback-webhooks
                               let the service's webhook channels deliver to 127.0.0.1,
                               ::1 and localhost over http: (local testing only)
  --quiet                      do not log one line per request
  -h, --help                   show this help
  -v, --version                print the version

Colour on a terminal; set NO_COLOR=1 to turn it off.
Exit status: 0 after Ctrl-C, 2 on usage errors, 1 when the server cannot start.
`;

/** What the command line asks for. */
export type CliParseResult =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'error'; message: string }
  | {
      kind: 'start';
      options: MockServerOptions;
      scenarioFile: string | undefined;
      /** Log one line per request (off with `--quiet`). */
      logRequests: boolean;
    };

const NUMERIC: Record<string, [target: 'server' | 'faults', key: string, integer: boolean]> = {
  port: ['server', 'port', true],
  seed: ['server', 'seed', true],
  'api-keys': ['server', 'apiKeyCount', true],
  'website-limit': ['server', 'websiteLimit', true],
  latency: ['faults', 'latencyMs', true],
  'rate-limit-every': ['faults', 'rateLimitEvery', true],
  'retry-after': ['faults', 'retryAfterSeconds', true],
  'server-error-rate': ['faults', 'serverErrorRate', false],
  'server-error-status': ['faults', 'serverErrorStatus', true],
  'drop-connection-rate': ['faults', 'dropConnectionRate', false],
};

/** `--latency -5` as `--latency=-5`: parseArgs would read `-5` as a flag of its own. */
function joinNegativeNumbers(argv: string[]): string[] {
  return argv.flatMap((arg, index) => {
    const next = argv[index + 1];
    const takesNumber = (flag: string | undefined) =>
      flag?.startsWith('--') && flag.slice(2) in NUMERIC;
    if (takesNumber(arg) && next !== undefined && /^-\.?\d/.test(next)) return [];
    const previous = argv[index - 1];
    if (takesNumber(previous) && /^-\.?\d/.test(arg)) return [`${previous}=${arg}`];
    return [arg];
  });
}

/** Parses the command line; range checks are left to `startMockServer`'s option validation. */
export function parseCliOptions(argv: string[], parseArgs: typeof ParseArgs): CliParseResult {
  const optionSpec = Object.fromEntries(
    Object.keys(NUMERIC).map((name) => [name, { type: 'string' as const }]),
  );
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: joinNegativeNumbers(argv),
      options: {
        ...optionSpec,
        host: { type: 'string' },
        scenario: { type: 'string' },
        'dangerously-allow-loopback-webhooks': { type: 'boolean' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    const usage = fromParseArgsError(error);
    if (usage === undefined) throw error;
    return { kind: 'error', message: usage.message };
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const options: MockServerOptions = { port: 4010 };
  const faults: MockFaultOptions = {};
  for (const [flag, [target, key, integer]] of Object.entries(NUMERIC)) {
    const raw = values[flag];
    if (typeof raw !== 'string') continue;
    const pattern = integer ? /^-?\d+$/ : /^-?(?:\d+(?:\.\d+)?|\.\d+)$/;
    // Not a number: handed on as typed, so the option checks (one rule) refuse it.
    const value = pattern.test(raw) ? Number(raw) : raw;
    Object.assign(target === 'server' ? options : faults, { [key]: value });
  }
  if (typeof values.host === 'string') options.host = values.host;
  if (Object.keys(faults).length > 0) options.faults = faults;
  if (values['dangerously-allow-loopback-webhooks'])
    options.dangerouslyAllowLoopbackWebhooks = true;
  try {
    checkMockServerOptions(options);
  } catch (error) {
    if (!isMockServerError(error) || error.code !== 'invalid_options') throw error;
    return { kind: 'error', message: nameFlags(error) };
  }
  const scenarioFile = typeof values.scenario === 'string' ? values.scenario : undefined;
  return { kind: 'start', options, scenarioFile, logRequests: values.quiet !== true };
}

/**
 * Words an option error of `startMockServer` (issue `faults.serverErrorRate`: `must be …, got 2`)
 * with the flag the user typed (`--server-error-rate must be … (got 2)`).
 */
export function nameFlags(error: MockServerError): string {
  if (error.issues.length === 0) return error.message;
  const flags = new Map<string, string>(
    Object.entries(NUMERIC).map(([flag, [target, key]]) => [
      target === 'faults' ? `faults.${key}` : key,
      `--${flag}`,
    ]),
  );
  flags.set('host', '--host');
  return error.issues
    .map(({ path, message }) => {
      const text = message.replace(/, got (.+)$/, ' (got $1)');
      return `${flags.get(path) ?? path} ${text}`;
    })
    .join('; ');
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Text made safe for a terminal: control characters (escape sequences included) become `?`. */
const printable = (text: string): string => text.replace(CONTROL, '?');

/** `text` in ANSI colour `code` when `color` is on (a terminal without NO_COLOR). */
export const paint = (color: boolean, code: number, text: string): string =>
  color ? `\u001b[${code}m${text}\u001b[0m` : text;

/** One line per request, like stripe-mock: `POST /v1/… 201 3 ms`, the status coloured. */
export function requestLine(entry: MockRequestLogEntry, color: boolean): string {
  const { method, path, status, durationMs } = entry;
  const code = status >= 500 ? 31 : status >= 400 ? 33 : 32;
  return `${printable(method)} ${printable(path)} ${paint(color, code, String(status))} ${durationMs} ms\n`;
}

/** What the start banner warns about: a host beyond loopback, webhooks allowed to loopback. */
export function startWarnings(options: MockServerOptions): string[] {
  const host = options.host ?? '127.0.0.1';
  return [
    ...(isLoopbackHost(host)
      ? []
      : [
          `WARNING: listening on ${host}, reachable from other machines; the fixture tokens are public. Use --host 127.0.0.1 unless you need it.`,
        ]),
    ...(options.dangerouslyAllowLoopbackWebhooks
      ? [
          'WARNING: webhook channels may deliver to loopback (--dangerously-allow-loopback-webhooks).',
        ]
      : []),
  ];
}
