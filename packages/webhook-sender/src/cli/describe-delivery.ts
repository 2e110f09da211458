/**
 * What the cspwatch CLIs print after sending: one verdict line per delivery (✔ it went as it
 * should, ✘ it did not), the details of a failure, and the receiver's answer, whole up to a
 * byte cap. The same text for `cspwatch-webhook` and `cspwatch-mock trigger`.
 */
import { redactUrls } from '@cspwatch/contract';
import type { DeliveryResult } from '../delivery/delivery-result';
import type { SigningVariant } from '../delivery/signing-variant';
import { ANSWER_READ_BYTES, cutAnswer } from './answer-text';

/** One delivery a command made, and what the receiver should have done with it. */
export interface DeliveryStep {
  /** What came back. */
  readonly result: DeliveryResult;
  /** How it was sent: signed, broken on purpose, or the same signed request again. */
  readonly variant: SigningVariant | 'replayed';
}

/** How the outcome is printed. */
export interface DescribeOptions {
  /** The receiver's URL (printed without userinfo or query values). */
  readonly url: string;
  /** What was sent, e.g. `sample alert`. */
  readonly what: string;
  /** Whether loopback was allowed (the hint for a refused local receiver is then not shown). */
  readonly allowLoopback: boolean;
  /** Colour the ✔ / ✘ mark (a terminal without NO_COLOR). */
  readonly color: boolean;
}

/** Why a receiver must refuse each broken delivery, as a question to its author. */
const MUST_REFUSE: Readonly<Record<Exclude<DeliveryStep['variant'], 'signed'>, string>> = {
  tampered: 'does it verify the signature over the raw body?',
  stale: 'does it check the timestamp?',
  unsigned: 'does it require the signature headers?',
  replayed: 'does it claim each delivery with a replay guard?',
};

/** Whether the receiver did what it should: accept a signed delivery, refuse the others with a 4xx. */
export function stepPassed({ result, variant }: DeliveryStep): boolean {
  if (variant === 'signed') return result.ok;
  return result.cause === 'http_status' && result.status !== null && result.status < 500;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Text from the remote end, made safe for a terminal: no escape sequence, no carriage return. */
const printable = (text: string): string => text.replace(/\r\n/g, '\n').replace(CONTROL, '?');

/** One line of text from the remote end (a location, an error). */
const printableLine = (text: string): string => printable(text).replace(/[\n\t]/g, ' ');

const paint = (on: boolean, code: number, text: string) =>
  on ? `\u001b[${code}m${text}\u001b[0m` : text;

/** The receiver's answer, indented under the verdict, cut safely with the bytes left out. */
function answerLines(excerpt: string | null): string[] {
  const text = printable(excerpt ?? '').trimEnd();
  if (text === '') return [];
  const { text: shown, omittedBytes } = cutAnswer(text);
  // The read itself stops at ANSWER_READ_BYTES: an answer that filled it may be longer.
  const atLeast = Buffer.byteLength(excerpt ?? '', 'utf8') >= ANSWER_READ_BYTES - 3;
  const more =
    omittedBytes === 0 ? '' : ` … (${atLeast ? 'at least ' : ''}${omittedBytes} more bytes)`;
  return [`  response: ${shown.replace(/\n/g, '\n    ')}${more}`];
}

function looksLocal(result: DeliveryResult): boolean {
  const { rejection } = result;
  if (!rejection) return false;
  if (rejection.reason === 'localhost_name' || rejection.reason === 'scheme_not_allowed')
    return true;
  return rejection.address === '::1' || rejection.address?.startsWith('127.') === true;
}

function describeStep(step: DeliveryStep, options: DescribeOptions): string[] {
  const { result, variant } = step;
  const { color } = options;
  const url = printableLine(redactUrls(options.url));
  const label =
    variant === 'signed'
      ? options.what
      : variant === 'replayed'
        ? `replay of the ${options.what}`
        : `${variant} ${options.what}`;
  const sent = result.alertId ? `${label} ${printableLine(result.alertId)}` : label;
  const timing = `${result.status} in ${result.durationMs} ms`;
  const ok = paint(color, 32, '✔');
  const failed = paint(color, 31, '✘');
  if (stepPassed(step)) {
    const line =
      variant === 'signed'
        ? `${ok} delivered ${sent} to ${url}: ${timing}`
        : `${ok} ${url} refused the ${sent}, as it should: ${timing}`;
    return [line, ...answerLines(result.responseExcerpt)];
  }
  if (variant !== 'signed' && result.ok) {
    const line = `${failed} ${url} accepted the ${sent}: ${timing}; it must refuse it with a 4xx (${MUST_REFUSE[variant]})`;
    return [line, ...answerLines(result.responseExcerpt)];
  }
  const lines = [
    `${failed} delivery of ${sent} to ${url} failed (${result.cause}) after ${result.durationMs} ms`,
  ];
  if (result.status !== null) lines.push(`  status: ${result.status}`);
  if (result.location !== null)
    lines.push(`  redirect to (not followed): ${printableLine(result.location)}`);
  if (result.error !== null) lines.push(`  ${printableLine(result.error)}`);
  lines.push(...answerLines(result.responseExcerpt));
  if (variant !== 'signed') lines.push(`  (expected: a 4xx refusal of the ${label})`);
  if (!options.allowLoopback && looksLocal(result))
    lines.push('  (testing a receiver on this machine? add --allow-loopback)');
  return lines;
}

/**
 * The human-readable outcome of the deliveries a command made: never the secret; URLs without
 * userinfo or query values; text from the receiver stripped of terminal control characters.
 */
export function describeDeliveries(
  steps: readonly DeliveryStep[],
  options: DescribeOptions,
): string {
  return `${steps.flatMap((step) => describeStep(step, options)).join('\n')}\n`;
}
