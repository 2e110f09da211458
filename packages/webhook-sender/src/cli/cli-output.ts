/**
 * What the `cspwatch-webhook` CLI prints: the usage text and the outcome of a delivery.
 */
import type { DeliveryResult } from '../delivery/delivery-result';

/** The variable the secret is read from when no source is given. */
export const DEFAULT_SECRET_ENV = 'CSPWATCH_WEBHOOK_SECRET';

/** Usage text of the CLI. */
export const USAGE = `Usage: cspwatch-webhook send-test --url <url> [secret source] [options]

Signs a sample cspwatch alert exactly like a real delivery and POSTs it to <url>.

Secret source (exactly one; default: --secret-env ${DEFAULT_SECRET_ENV}):
  --secret-env <VAR>   read the signing secret from environment variable VAR
  --secret-stdin       read the signing secret from standard input
  --secret <secret>    the secret itself (discouraged: visible in shell history and ps)

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
}

const paint = (on: boolean, code: number, text: string) =>
  on ? `\u001b[${code}m${text}\u001b[0m` : text;

/**
 * The human-readable outcome of `send-test`, naming the full URL delivered to. Never contains
 * the secret; text from the endpoint is stripped of terminal control characters.
 */
export function describeResult(
  result: DeliveryResult,
  url: string,
  { allowLoopback, color }: DescribeOptions,
): string {
  const timing = `${result.durationMs} ms`;
  const shownUrl = printable(url);
  if (result.ok)
    return `${paint(color, 32, '✔')} delivered sample alert ${result.alertId} to ${shownUrl}: ${result.status} in ${timing}\n`;
  const lines = [
    `${paint(color, 31, '✘')} delivery to ${shownUrl} failed (${result.cause}) after ${timing}`,
  ];
  if (result.status !== null) lines.push(`  status: ${result.status}`);
  if (result.location !== null)
    lines.push(`  redirect to (not followed): ${printable(result.location)}`);
  if (result.error !== null) lines.push(`  ${printable(result.error)}`);
  if (result.responseExcerpt)
    lines.push(`  response: ${printable(result.responseExcerpt.slice(0, 200))}`);
  if (!allowLoopback && looksLocal(result))
    lines.push('  (testing a handler on this machine? add --allow-loopback)');
  return `${lines.join('\n')}\n`;
}
