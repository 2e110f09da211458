/**
 * The `cspwatch-webhook` command line: `send-test` signs a sample alert like a real delivery
 * and POSTs it to a URL, so a customer can try their handler. The secret comes from an
 * environment variable or stdin (or, discouraged, `--secret`); it is never printed.
 */
import { parseArgs } from 'node:util';
import { MIN_SECRET_LENGTH, secretProblem } from '@cspwatch/webhooks';
import { createWebhookSender } from '../delivery/create-sender';
import { isWebhookSenderError } from '../errors';
import { VERSION } from '../version';
import { DEFAULT_SECRET_ENV, describeResult, USAGE } from './cli-output';

/** What the CLI reads and writes; injectable for tests. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly readStdin: () => Promise<string>;
  /** Whether stdout is a terminal that takes colour (and NO_COLOR is not set). */
  readonly color?: boolean;
}

/** The options that take a value, so `--timeout -5` reads as a value, not an unknown flag. */
const VALUE_OPTIONS = new Set(['--url', '--secret', '--secret-env', '--timeout']);

/** Joins `--option -5` into `--option=-5`: parseArgs would take `-5` for a flag of its own. */
function joinNegativeValues(args: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    const next = args[index + 1];
    if (VALUE_OPTIONS.has(arg) && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${arg}=${next}`);
      index += 1;
    } else joined.push(arg);
  }
  return joined;
}

class UsageError extends Error {}

async function readSecret(values: Record<string, unknown>, io: CliIo): Promise<string> {
  const sources = ['secret', 'secret-env', 'secret-stdin'].filter(
    (key) => values[key] !== undefined,
  );
  if (sources.length > 1)
    throw new UsageError('give exactly one of --secret, --secret-env, --secret-stdin');
  if (values.secret !== undefined) {
    io.stderr(
      'warning: --secret exposes the secret in shell history and process lists; prefer --secret-env or --secret-stdin\n',
    );
    return values.secret as string;
  }
  if (values['secret-stdin']) return (await io.readStdin()).replace(/\r?\n$/, '');
  const name = (values['secret-env'] as string | undefined) ?? DEFAULT_SECRET_ENV;
  const secret = io.env[name];
  if (secret === undefined || secret === '') {
    // A custom name is not echoed: people do pass the secret itself to --secret-env.
    const which = name === DEFAULT_SECRET_ENV ? name : 'named by --secret-env';
    throw new UsageError(
      `environment variable ${which} is not set (--secret-env takes a variable's name, not the secret)`,
    );
  }
  return secret;
}

async function sendTest(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: joinNegativeValues(args),
    strict: true,
    options: {
      url: { type: 'string' },
      secret: { type: 'string' },
      'secret-env': { type: 'string' },
      'secret-stdin': { type: 'boolean' },
      'allow-loopback': { type: 'boolean' },
      timeout: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  if (!values.url) throw new UsageError('--url is required');
  if (!URL.canParse(values.url)) {
    throw new UsageError('--url must be an absolute URL, e.g. https://hooks.example.com/cspwatch');
  }
  const timeoutMs = values.timeout === undefined ? 10_000 : Number(values.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
    throw new UsageError('--timeout must be a positive integer (ms)');
  const secret = await readSecret(values, io);
  if (secretProblem(secret) !== undefined) {
    throw new UsageError(`the secret must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  const allowLoopback = values['allow-loopback'] === true;
  const sender = createWebhookSender({ dangerouslyAllowLoopback: allowLoopback, timeoutMs });
  try {
    const result = await sender.sendTest({ id: 'cli-send-test', url: values.url, secret });
    io.stdout(
      values.json
        ? `${JSON.stringify(result, null, 2)}\n`
        : describeResult(result, new URL(values.url).href, {
            allowLoopback,
            color: io.color === true,
          }),
    );
    return result.ok ? 0 : 1;
  } finally {
    await sender.close();
  }
}

/**
 * Runs the CLI with `argv` (without node and script) and returns the exit status.
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(process.argv.slice(2), nodeCliIo());
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    io.stdout(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command === '-v' || command === '--version') {
    io.stdout(`cspwatch-webhook ${VERSION}\n`);
    return 0;
  }
  try {
    if (command !== 'send-test') {
      const shown = /^[a-z][a-z-]{0,30}$/.test(command) ? `"${command}"` : '(not shown)';
      throw new UsageError(`unknown command ${shown}; the only command is send-test`);
    }
    if (rest.includes('-h') || rest.includes('--help')) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    return await sendTest(rest, io);
  } catch (error) {
    const known =
      error instanceof UsageError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    if (!known && !isWebhookSenderError(error)) throw error;
    // A stray argument may be a secret pasted in the wrong place: never echo it.
    const message =
      (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'
        ? 'unexpected argument (not shown); every value follows its option, e.g. --url <url>'
        : (error as Error).message;
    io.stderr(`cspwatch-webhook: ${message}\nRun "cspwatch-webhook --help" for usage.\n`);
    return 2;
  }
}

/** The real process I/O of the CLI. */
export function nodeCliIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    color: process.stdout.isTTY === true && !process.env.NO_COLOR,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}
