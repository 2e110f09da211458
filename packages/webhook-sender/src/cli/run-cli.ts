/**
 * The `cspwatch-webhook` command line: `send-test` signs a sample alert like a real delivery
 * and POSTs it to a URL, so a customer can try their handler; `send` sends any payload, or a
 * deliberately broken one. The secret comes from an environment variable or stdin (or,
 * discouraged, `--secret`); it is never printed.
 */
import { redactUrls } from '@cspwatch/contract';
import { isWebhookSenderError } from '../errors';
import { VERSION } from '../version';
import { describeOptionIssues, UsageError } from './cli-args';
import type { CliIo } from './cli-io';
import { USAGE } from './cli-output';
import { sendCommand, sendTestCommand } from './commands';

export { type CliIo, nodeCliIo } from './cli-io';

const COMMANDS: Record<string, (args: string[], io: CliIo) => Promise<number>> = {
  'send-test': sendTestCommand,
  send: sendCommand,
};

/**
 * Runs the CLI with `argv` (without node and script) and returns the exit status.
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(process.argv.slice(2), nodeCliIo());
 * ```
 */
export async function runCli(argv: readonly string[], given: CliIo): Promise<number> {
  // Everything printed passes the URL rule: the target, the receiver's answer, and what Node
  // says about an argument (`Unknown option '--https://user:pw@…'`) or a file.
  const io: CliIo = {
    ...given,
    stdout: (text) => given.stdout(redactUrls(text)),
    stderr: (text) => given.stderr(redactUrls(text)),
  };
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
    const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (run === undefined) {
      const shown = /^[a-z][a-z-]{0,30}$/.test(command) ? `"${command}"` : '(not shown)';
      throw new UsageError(`unknown command ${shown}; the commands are send-test and send`);
    }
    if (rest.includes('-h') || rest.includes('--help')) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    return await run(rest, io);
  } catch (error) {
    const known =
      error instanceof UsageError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    if (!known && !isWebhookSenderError(error)) throw error;
    // A stray argument may be a secret pasted in the wrong place: never echo it.
    const message =
      (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'
        ? 'unexpected argument (not shown); every value follows its option, e.g. --url <url>'
        : isWebhookSenderError(error) && error.code === 'invalid_options'
          ? describeOptionIssues(error)
          : (error as Error).message;
    io.stderr(`cspwatch-webhook: ${message}\nRun "cspwatch-webhook --help" for usage.\n`);
    return 2;
  }
}
