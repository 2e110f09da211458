import type { parseArgs as ParseArgs } from 'node:util';
import type { MockServerOptions } from './node-server';
import type { MockFaultOptions } from './options';

/** The `--help` text of `cspwatch-mock`. */
export const USAGE = `Usage: cspwatch-mock [options]
       cspwatch-mock trigger --to <url> --secret-env <NAME> [alert options]

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
  -h, --help                   show this help
`;

/** What the command line asks for. */
export type CliParseResult =
  | { kind: 'help' }
  | { kind: 'error'; message: string }
  | { kind: 'start'; options: MockServerOptions; scenarioFile: string | undefined };

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

/** Parses the command line; range checks are left to `startMockServer`'s option validation. */
export function parseCliOptions(argv: string[], parseArgs: typeof ParseArgs): CliParseResult {
  const optionSpec = Object.fromEntries(
    Object.keys(NUMERIC).map((name) => [name, { type: 'string' as const }]),
  );
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        ...optionSpec,
        host: { type: 'string' },
        scenario: { type: 'string' },
        'dangerously-allow-loopback-webhooks': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { kind: 'help' };
  const options: MockServerOptions = { port: 4010 };
  const faults: MockFaultOptions = {};
  for (const [flag, [target, key, integer]] of Object.entries(NUMERIC)) {
    const raw = values[flag];
    if (typeof raw !== 'string') continue;
    const pattern = integer ? /^\d+$/ : /^(?:\d+(?:\.\d+)?|\.\d+)$/;
    if (!pattern.test(raw)) {
      return {
        kind: 'error',
        message: `--${flag} must be ${integer ? 'a whole number' : 'a number from 0 to 1'}; got ${JSON.stringify(raw)}.`,
      };
    }
    Object.assign(target === 'server' ? options : faults, { [key]: Number(raw) });
  }
  if (typeof values.host === 'string') options.host = values.host;
  if (Object.keys(faults).length > 0) options.faults = faults;
  if (values['dangerously-allow-loopback-webhooks'])
    options.dangerouslyAllowLoopbackWebhooks = true;
  const scenarioFile = typeof values.scenario === 'string' ? values.scenario : undefined;
  return { kind: 'start', options, scenarioFile };
}
