/**
 * @cspwatch/webhook-sender/cli: the building blocks of the cspwatch command lines, so every
 * CLI that sends to a receiver (`cspwatch-webhook`, `cspwatch-mock trigger`) takes the same
 * flags, prints the same outcome and reports usage errors the same way: exit status 2 and one
 * line that names the flag and the fix.
 *
 * @packageDocumentation
 */

export { DELIVERY_USAGE } from './cli/cli-args';
export { type CliIo, nodeCliIo } from './cli/cli-io';
export type { Payload } from './cli/read-payload';
export {
  runSendCommand,
  type SendCommand,
  type SendFlagValues,
  type SendPayload,
} from './cli/send-flow';
export {
  fromParseArgsError,
  gotValue,
  USAGE_EXIT_CODE,
  UsageError,
  usageErrorLine,
} from './cli/usage-error';
