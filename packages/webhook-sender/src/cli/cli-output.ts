/**
 * The help texts of `cspwatch-webhook`: the command list and each command's flags, the
 * delivery flags written once (`DELIVERY_USAGE`, shared with `cspwatch-mock trigger`).
 */
import { DELIVERY_USAGE } from './cli-args';

const COMMON = `Colour on a terminal; set NO_COLOR=1 to turn it off.

${DELIVERY_USAGE}`;

/** Help of `cspwatch-webhook send-test`. */
export const SEND_TEST_USAGE = `Usage: cspwatch-webhook send-test --url <url> [--allow-loopback] [check] [secret] [options]

Signs a sample cspwatch alert exactly like a real delivery (the Test action) and POSTs it
to <url>, then prints what the receiver answered.

${COMMON}`;

/** Help of `cspwatch-webhook send`. */
export const SEND_USAGE = `Usage: cspwatch-webhook send --url <url> [--payload <file>|-] [--event-type <type>]
                             [--allow-loopback] [check] [secret] [options]

POSTs any JSON object, signed like a real delivery or broken on purpose, to check what
your receiver accepts and refuses.

Payload:
  --payload <file>     the JSON object to send (- reads standard input; default: the
                       sample alert); an "id" is added when it has none
  --event-type <type>  set the payload's "eventType"

${COMMON}`;

/** Help of `cspwatch-webhook`. */
export const USAGE = `Usage: cspwatch-webhook <command> --url <url> [options]

Commands:
  send-test  sign a sample cspwatch alert exactly like a real delivery and POST it to <url>
  send       POST any JSON object (--payload), signed like a real delivery or broken on purpose

  -h, --help           show this help (cspwatch-webhook <command> --help for a command's)
  -v, --version        print the version

Example: a receiver on this machine, then a check that it refuses a tampered delivery:
  cspwatch-webhook send-test --url http://127.0.0.1:3000/webhooks --allow-loopback
  cspwatch-webhook send-test --url http://127.0.0.1:3000/webhooks --allow-loopback --tamper

${COMMON}`;
