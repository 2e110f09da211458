/**
 * What the `cspwatch-webhook` CLI prints: the usage text and the outcome of a delivery.
 */
import { redactUrls } from '@cspwatch/contract';
import type { DeliveryResult } from '../delivery/delivery-result';
import type { SigningVariant } from '../delivery/signing-variant';

/** The variable the secret is read from when no source is given. */
export const DEFAULT_SECRET_ENV = 'CSPWATCH_WEBHOOK_SECRET';

/** Usage text of the CLI. */
export const USAGE = `Usage: cspwatch-webhook send-test --url <url> [secret source] [options]
       cspwatch-webhook send --url <url> [--payload <file>|-] [--event-type <type>]
                             [--tamper | --stale | --unsigned] [secret source] [options]

send-test  signs a sample cspwatch alert exactly like a real delivery and POSTs it to <url>.
send       POSTs any JSON object, signed like a real delivery or broken on purpose, to check
           what your receiver accepts and refuses.

Secret source (exactly one; default: --secret-env ${DEFAULT_SECRET_ENV}):
  --secret-env <VAR>   read the signing secret from environment variable VAR
  --secret-stdin       read the signing secret from standard input
  --secret <secret>    the secret itself (discouraged: visible in shell history and ps)

Options of send:
  --payload <file>     the JSON object to send (- reads standard input; default: the
                       sample alert); an "id" is added when it has none
  --event-type <type>  set the payload's "eventType"
  --tamper             change the body after signing (expect signature_mismatch)
  --stale              sign with a timestamp an hour old (expect timestamp_too_old)
  --unsigned           send no signature headers (expect missing_header)

Options:
  --allow-loopback     allow 127.0.0.0/8 and ::1 (and http: for them), for a handler
                       running on this machine; other private addresses stay refused
  --timeout <ms>       total time allowed for the delivery (default 10000)
  --json               print the outcome as JSON
  -h, --help           show this help
  -v, --version        print the version

Colour on a terminal; set NO_COLOR=1 to turn it off.

Exit status: 0 when the endpoint answered 2xx, 1 when the delivery failed, 2 on usage errors.`;

function looksLocal(result: DeliveryResult): boolean {
  const { rejection } = result;
  if (!rejection) return false;
  if (rejection.reason === 'localhost_name' || rejection.reason === 'scheme_not_allowed')
    return true;
  return rejection.address === '::1' || rejection.address?.startsWith('127.') === true;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

/** Text from the remote endpoint, made safe for a terminal (no escape sequences). */
const printable = (text: string): string => text.replace(CONTROL, '?');

/** How to print: `color` adds ANSI colour to the verdict mark (a terminal without NO_COLOR). */
export interface DescribeOptions {
  /** Allow loopback targets (the hint for a refused local handler is then not shown). */
  allowLoopback: boolean;
  /** Colour the ✔ / ✘ mark. */
  color: boolean;
  /** A deliberately broken delivery (`send --tamper` …): says what a receiver must do. @default 'signed' */
  variant?: SigningVariant;
  /** What was sent, as the outcome names it. @default 'sample alert' */
  what?: string;
}

const paint = (on: boolean, code: number, text: string) =>
  on ? `\u001b[${code}m${text}\u001b[0m` : text;

/**
 * The human-readable outcome of `send-test`, naming the URL delivered to without its userinfo
 * and query values. Never contains the secret; text from the endpoint is stripped of terminal
 * control characters.
 */
export function describeResult(
  result: DeliveryResult,
  url: string,
  { allowLoopback, color, variant = 'signed', what: sent = 'sample alert' }: DescribeOptions,
): string {
  const timing = `${result.durationMs} ms`;
  const shownUrl = printable(redactUrls(url));
  const what = variant === 'signed' ? sent : `${variant} ${sent}`;
  if (result.ok) {
    const line = `${paint(color, 32, '✔')} delivered ${what} ${result.alertId} to ${shownUrl}: ${result.status} in ${timing}\n`;
    if (variant === 'signed') return line;
    return `${line}${paint(color, 33, '!')} the receiver accepted a ${variant} delivery: it must refuse it (it does not verify, or not fully)\n`;
  }
  const lines = [
    `${paint(color, 31, '✘')} delivery of ${what} to ${shownUrl} failed (${result.cause}) after ${timing}`,
  ];
  if (result.status !== null) lines.push(`  status: ${result.status}`);
  if (result.location !== null)
    lines.push(`  redirect to (not followed): ${printable(result.location)}`);
  if (result.error !== null) lines.push(`  ${printable(result.error)}`);
  if (result.responseExcerpt)
    lines.push(`  response: ${printable(result.responseExcerpt.slice(0, 200))}`);
  if (variant !== 'signed' && result.cause === 'http_status')
    lines.push(`  (expected: a receiver refuses a ${variant} delivery)`);
  if (!allowLoopback && looksLocal(result))
    lines.push('  (testing a handler on this machine? add --allow-loopback)');
  return `${lines.join('\n')}\n`;
}
