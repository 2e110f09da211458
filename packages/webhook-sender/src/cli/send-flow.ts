/**
 * The one way the cspwatch CLIs send to a receiver: parse the delivery flags, build the
 * payload (each command its own way), send it once, broken on purpose, or twice for
 * `--replay`, print the outcome and return the exit status. `cspwatch-webhook send-test`,
 * `send` and `cspwatch-mock trigger` are this flow with their own payload.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { redactUrls } from '@cspwatch/contract';
import type { CspwatchEvent } from '@cspwatch/webhooks';
import type { DeliveryResult } from '../delivery/delivery-result';
import { sendOnce } from '../delivery/send-once';
import type { SigningVariant } from '../delivery/signing-variant';
import { isWebhookSenderError } from '../errors';
import type { WebhookSenderOptions } from '../options';
import { ANSWER_READ_BYTES } from './answer-text';
import {
  checkSenderOptions,
  checkUrlArg,
  DELIVERY_OPTIONS,
  joinNegativeValues,
  timeoutArg,
} from './cli-args';
import type { CliIo } from './cli-io';
import { type DeliveryStep, describeDeliveries, stepPassed } from './describe-delivery';
import type { Payload } from './read-payload';
import { readSecret } from './read-secret';
import { fromParseArgsError, USAGE_EXIT_CODE, UsageError, usageErrorLine } from './usage-error';

/** The parsed flags a payload is built from. */
export type SendFlagValues = Readonly<Record<string, string | boolean | undefined>>;

/** The JSON object a command sends, and how the outcome names it (`sample alert`). */
export interface SendPayload {
  /** The JSON object sent, serialised once and signed as is. */
  readonly payload: Payload;
  /** Its name in the printed outcome, e.g. `sample alert`. */
  readonly what: string;
}

/** One sending command: its name and help, its own flags, and where its payload comes from. */
export interface SendCommand {
  /** The command as typed, for error lines: `cspwatch-mock trigger`. */
  readonly name: string;
  /** The full `--help` text. */
  readonly usage: string;
  /** Flags of its own, beside the delivery flags. */
  readonly options?: NonNullable<ParseArgsConfig['options']>;
  /**
   * Deprecated spellings of `--url`, accepted without a word for one release. They keep their
   * old behaviour: loopback allowed without `--allow-loopback`.
   */
  readonly urlAliases?: readonly string[];
  /** Builds the payload; throws {@link UsageError} naming the flag that is wrong. */
  readonly payload: (values: SendFlagValues, io: CliIo) => Promise<SendPayload>;
}

/** Which check of the receiver the flags ask for, as the variant of the (last) delivery. */
function checkOf(values: SendFlagValues): SigningVariant | 'replayed' {
  const flags = ['replay', 'tamper', 'stale', 'unsigned'] as const;
  const chosen = flags.filter((flag) => values[flag] === true);
  if (chosen.length > 1)
    throw new UsageError('give at most one of --replay, --tamper, --stale, --unsigned');
  const variants = { replay: 'replayed', tamper: 'tampered', stale: 'stale', unsigned: 'unsigned' };
  return chosen[0] === undefined ? 'signed' : (variants[chosen[0]] as SigningVariant | 'replayed');
}

/** Rewrites `--to x` and `--to=x` as `--url`; says whether an alias was used. */
function renameAliases(args: readonly string[], aliases: readonly string[]) {
  let aliased = false;
  const renamed = args.map((arg) => {
    const alias = aliases.find((name) => arg === `--${name}` || arg.startsWith(`--${name}=`));
    if (alias === undefined) return arg;
    aliased = true;
    return `--url${arg.slice(alias.length + 2)}`;
  });
  return { renamed, aliased };
}

/** Sends as `check` asks; a replay is the first signed request again, byte for byte. */
async function deliver(
  check: SigningVariant | 'replayed',
  url: string,
  secret: string,
  payload: Payload,
  options: WebhookSenderOptions,
): Promise<DeliveryStep[]> {
  const channel = { id: 'cli', url, secret };
  const alert = payload as unknown as CspwatchEvent;
  if (check !== 'replayed')
    return [{ variant: check, result: await sendOnce(channel, alert, options, check) }];
  // One timestamp for both: the same body and timestamp give the same signature.
  const signedAt = Date.now();
  const fixed = { ...options, now: () => signedAt };
  const first = await sendOnce(channel, alert, fixed);
  if (!first.ok) return [{ variant: 'signed', result: first }];
  return [
    { variant: 'signed', result: first },
    { variant: 'replayed', result: await sendOnce(channel, alert, fixed) },
  ];
}

/**
 * JSON for a terminal: `JSON.stringify` escapes C0 controls but leaves DEL and the C1 controls
 * (CSI, OSC: escape sequences in one character) raw; they are escaped too, same parsed value.
 */
const terminalJson = (value: unknown): string =>
  JSON.stringify(value, null, 2).replace(
    /[\u007f-\u009f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** Prints JSON (one result, or an array for `--replay`) or the human-readable outcome. */
function print(
  io: CliIo,
  steps: DeliveryStep[],
  json: boolean,
  replay: boolean,
  describe: () => string,
): void {
  const results: DeliveryResult[] = steps.map((step) => step.result);
  io.stdout(json ? `${terminalJson(replay ? results : results[0])}\n` : describe());
}

async function run(args: readonly string[], io: CliIo, command: SendCommand): Promise<number> {
  const { renamed, aliased } = renameAliases(args, command.urlAliases ?? []);
  const spec = { ...DELIVERY_OPTIONS, ...command.options };
  let values: SendFlagValues;
  try {
    ({ values } = parseArgs({
      args: joinNegativeValues(renamed, spec),
      options: spec,
      strict: true,
    }));
  } catch (error) {
    throw fromParseArgsError(error) ?? error;
  }
  const url = checkUrlArg(values.url as string | undefined);
  const check = checkOf(values);
  const allowLoopback = values['allow-loopback'] === true || aliased;
  const timeoutMs = timeoutArg(values.timeout as string | undefined);
  const options = checkSenderOptions({
    dangerouslyAllowLoopback: allowLoopback,
    maxResponseBodyBytes: ANSWER_READ_BYTES,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
  const { payload, what } = await command.payload(values, io);
  const secret = await readSecret(values, io);
  const steps = await deliver(check, url, secret, payload, options);
  print(io, steps, values.json === true, check === 'replayed', () =>
    describeDeliveries(steps, { url, what, allowLoopback, color: io.color === true }),
  );
  return steps.every(stepPassed) ? 0 : 1;
}

/**
 * Runs one sending command with `args` (after the command's name) and returns the exit
 * status: 0 when the receiver answered as it should, 1 when not, 2 for a usage error (one line
 * on stderr). Everything printed passes the URL rule (no userinfo, no query values).
 *
 * @example
 * ```ts
 * process.exitCode = await runSendCommand(process.argv.slice(3), nodeCliIo(), {
 *   name: 'my-cli send',
 *   usage: `Usage: my-cli send --url <url>\n\n${DELIVERY_USAGE}`,
 *   payload: async () => ({ payload: { id: 'evt_1', eventType: 'x:y' }, what: 'event' }),
 * });
 * ```
 */
export async function runSendCommand(
  args: readonly string[],
  given: CliIo,
  command: SendCommand,
): Promise<number> {
  const io: CliIo = {
    ...given,
    stdout: (text) => given.stdout(redactUrls(text)),
    stderr: (text) => given.stderr(redactUrls(text)),
  };
  if (args.includes('-h') || args.includes('--help')) {
    io.stdout(`${command.usage}\n`);
    return 0;
  }
  try {
    return await run(args, io, command);
  } catch (error) {
    const usage =
      error instanceof UsageError
        ? error
        : isWebhookSenderError(error)
          ? new UsageError(error.issues.map((i) => `${i.path}: ${i.message}`).join('; '))
          : undefined;
    if (usage === undefined) throw error;
    io.stderr(usageErrorLine(command.name, usage.message));
    return USAGE_EXIT_CODE;
  }
}
