/**
 * The `cspwatch-webhook` command line: `send-test` signs a sample alert like a real delivery
 * and POSTs it to a URL, so a customer can try their handler; `send` sends any payload. Both
 * can check that a receiver refuses a replay, a tampered, stale or unsigned delivery. The
 * secret comes from an environment variable or stdin (or, discouraged, `--secret`); it is
 * never printed.
 */
import { redactUrls } from '@cspwatch/contract';
import { VERSION } from '../version';
import type { CliIo } from './cli-io';
import { USAGE } from './cli-output';
import { sendCommand, sendTestCommand } from './commands';
import { USAGE_EXIT_CODE, usageErrorLine } from './usage-error';

export { type CliIo, nodeCliIo } from './cli-io';

const COMMANDS: Record<string, (args: string[], io: CliIo) => Promise<number>> = {
  'send-test': sendTestCommand,
  send: sendCommand,
};

/** The usage error for a first argument that is not a command. */
function notACommand(command: string): string {
  if (command.startsWith('-'))
    return 'the command is missing: start with send-test or send, e.g. cspwatch-webhook send-test --url <url>';
  // A mistyped secret or URL in first place is not echoed.
  const shown = /^[a-z][a-z-]{0,30}$/.test(command) ? `"${command}"` : '(not shown)';
  return `unknown command ${shown}; the commands are send-test and send`;
}

/**
 * Runs the CLI with `argv` (without node and script) and returns the exit status.
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(process.argv.slice(2), nodeCliIo());
 * ```
 */
export async function runCli(argv: readonly string[], given: CliIo): Promise<number> {
  const io: CliIo = {
    ...given,
    stdout: (text) => given.stdout(redactUrls(text)),
    stderr: (text) => given.stderr(redactUrls(text)),
  };
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    io.stdout(`${USAGE}\n`);
    return command === undefined ? USAGE_EXIT_CODE : 0;
  }
  if (command === '-v' || command === '--version') {
    io.stdout(`cspwatch-webhook ${VERSION}\n`);
    return 0;
  }
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (run === undefined) {
    io.stderr(usageErrorLine('cspwatch-webhook', notACommand(command)));
    return USAGE_EXIT_CODE;
  }
  return run(rest, io);
}
