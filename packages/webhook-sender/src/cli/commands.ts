/**
 * The CLI's two sending commands, both the shared send flow: `send-test` sends the sample
 * alert like the Test action; `send` sends any JSON object (`--payload`). Both take the
 * delivery flags, the checks (`--replay`, `--tamper`, `--stale`, `--unsigned`) included.
 */
import { createSampleAlert } from '@cspwatch/webhooks/node';
import type { CliIo } from './cli-io';
import { SEND_TEST_USAGE, SEND_USAGE } from './cli-output';
import { readPayload } from './read-payload';
import { runSendCommand, type SendCommand } from './send-flow';
import { UsageError } from './usage-error';

const SEND_TEST: SendCommand = {
  name: 'cspwatch-webhook send-test',
  usage: SEND_TEST_USAGE,
  payload: async () => ({ payload: { ...createSampleAlert() }, what: 'sample alert' }),
};

const SEND: SendCommand = {
  name: 'cspwatch-webhook send',
  usage: SEND_USAGE,
  options: { payload: { type: 'string' }, 'event-type': { type: 'string' } },
  payload: async (values, io) => {
    const source = values.payload as string | undefined;
    if (source === '-' && values['secret-stdin'])
      throw new UsageError('--payload - and --secret-stdin both read standard input; use one');
    const payload = await readPayload(source, values['event-type'] as string | undefined, io);
    return { payload, what: source === undefined ? 'sample alert' : 'payload' };
  },
};

/** `send-test`: the sample alert, signed like the Test action. */
export const sendTestCommand = (args: string[], io: CliIo): Promise<number> =>
  runSendCommand(args, io, SEND_TEST);

/** `send`: any JSON object (file, stdin or the sample alert), signed or broken on purpose. */
export const sendCommand = (args: string[], io: CliIo): Promise<number> =>
  runSendCommand(args, io, SEND);
