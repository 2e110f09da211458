/**
 * The CLI's two sending commands. `send-test` signs the sample alert like the Test action;
 * `send` sends any JSON payload, optionally broken on purpose (`--tamper`, `--stale`,
 * `--unsigned`) to check that a receiver refuses it.
 */
import { parseArgs } from 'node:util';
import type { CspwatchEvent } from '@cspwatch/webhooks';
import { createWebhookSender } from '../delivery/create-sender';
import type { DeliveryResult } from '../delivery/delivery-result';
import { sendOnce } from '../delivery/send-once';
import type { SigningVariant } from '../delivery/signing-variant';
import {
  COMMON_OPTIONS,
  checkTimeoutArg,
  checkUrlArg,
  joinNegativeValues,
  UsageError,
} from './cli-args';
import type { CliIo } from './cli-io';
import { describeResult } from './cli-output';
import { readPayload } from './read-payload';
import { readSecret } from './read-secret';

/** How one outcome is printed. */
interface PrintOptions {
  url: string;
  json: boolean;
  allowLoopback: boolean;
  variant: SigningVariant;
  what: string;
}

/** Prints the outcome and returns the exit status: 0 for a 2xx answer, 1 otherwise. */
function print(io: CliIo, result: DeliveryResult, options: PrintOptions): number {
  const { url, json, ...describe } = options;
  io.stdout(
    json
      ? `${JSON.stringify(result, null, 2)}\n`
      : describeResult(result, new URL(url).href, { ...describe, color: io.color === true }),
  );
  return result.ok ? 0 : 1;
}

/** `send-test`: the sample alert, signed, through a sender's Test action. */
export async function sendTestCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: joinNegativeValues(args, COMMON_OPTIONS),
    strict: true,
    options: COMMON_OPTIONS,
  });
  const url = checkUrlArg(values.url);
  const timeoutMs = checkTimeoutArg(values.timeout);
  const secret = await readSecret(values, io);
  const allowLoopback = values['allow-loopback'] === true;
  const sender = createWebhookSender({ dangerouslyAllowLoopback: allowLoopback, timeoutMs });
  try {
    const result = await sender.sendTest({ id: 'cli-send-test', url, secret });
    const json = values.json === true;
    return print(io, result, { url, json, allowLoopback, variant: 'signed', what: 'sample alert' });
  } finally {
    await sender.close();
  }
}

const SEND_OPTIONS = {
  ...COMMON_OPTIONS,
  payload: { type: 'string' },
  'event-type': { type: 'string' },
  tamper: { type: 'boolean' },
  stale: { type: 'boolean' },
  unsigned: { type: 'boolean' },
} as const;

function variantOf(values: {
  tamper?: boolean;
  stale?: boolean;
  unsigned?: boolean;
}): SigningVariant {
  const chosen = (['tamper', 'stale', 'unsigned'] as const).filter((flag) => values[flag]);
  if (chosen.length > 1) throw new UsageError('give at most one of --tamper, --stale, --unsigned');
  const variants = { tamper: 'tampered', stale: 'stale', unsigned: 'unsigned' } as const;
  return chosen[0] === undefined ? 'signed' : variants[chosen[0]];
}

/** `send`: any JSON object (file, stdin or the sample alert), signed or broken on purpose. */
export async function sendCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: joinNegativeValues(args, SEND_OPTIONS),
    strict: true,
    options: SEND_OPTIONS,
  });
  const url = checkUrlArg(values.url);
  const timeoutMs = checkTimeoutArg(values.timeout);
  const variant = variantOf(values);
  if (values.payload === '-' && values['secret-stdin'])
    throw new UsageError('--payload - and --secret-stdin both read standard input; use one');
  const payload = await readPayload(values.payload, values['event-type'], io);
  const secret = await readSecret(values, io);
  const allowLoopback = values['allow-loopback'] === true;
  const channel = { id: 'cli-send', url, secret };
  const senderOptions = { dangerouslyAllowLoopback: allowLoopback, timeoutMs };
  const result = await sendOnce(
    channel,
    payload as unknown as CspwatchEvent,
    senderOptions,
    variant,
  );
  const what = values.payload === undefined ? 'sample alert' : 'payload';
  return print(io, result, { url, json: values.json === true, allowLoopback, variant, what });
}
