/**
 * The payload of `send`: a JSON object from a file or stdin (`-`), or the sample alert, with
 * `--event-type` applied and an `id` added when it has none.
 */
import { randomUUID } from 'node:crypto';
import { createSampleAlert } from '@cspwatch/webhooks/node';
import { type CliIo, readFileUtf8 } from './cli-io';
import { UsageError } from './usage-error';

/** Largest payload read, in bytes: the size of a real alert is far below. */
export const MAX_PAYLOAD_BYTES = 1_048_576;

/** A JSON object with a string `id`: what the sender serialises and signs. */
export type Payload = Record<string, unknown> & {
  /** The delivery's `id` (a replay guard may key on it). */
  id: string;
};

async function readSource(source: string, io: CliIo): Promise<string> {
  if (source === '-') return io.readStdin();
  try {
    return await (io.readFile ?? readFileUtf8)(source);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new UsageError(`--payload: cannot read ${source} (${String(code ?? error)})`);
  }
}

function parseObject(text: string, source: string): Record<string, unknown> {
  const where = source === '-' ? 'standard input' : source;
  if (Buffer.byteLength(text, 'utf8') > MAX_PAYLOAD_BYTES)
    throw new UsageError(`--payload: ${where} is larger than 1 MB`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--payload: ${where} is not valid JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value;
    throw new UsageError(`--payload: ${where} must hold a JSON object, not ${kind}`);
  }
  return value as Record<string, unknown>;
}

/** The payload the options describe; `source` is a path, `-` for stdin, or absent (sample). */
export async function readPayload(
  source: string | undefined,
  eventType: string | undefined,
  io: CliIo,
): Promise<Payload> {
  const base: Record<string, unknown> =
    source === undefined
      ? { ...createSampleAlert() }
      : parseObject(await readSource(source, io), source);
  if (eventType !== undefined) {
    if (!/^[\x21-\x7e]{1,200}$/.test(eventType))
      throw new UsageError('--event-type must be 1 to 200 printable ASCII characters, no spaces');
    base.eventType = eventType;
  }
  if (base.id === undefined) base.id = randomUUID();
  if (typeof base.id !== 'string' || base.id === '')
    throw new UsageError('--payload: the "id" field must be a non-empty string (or absent)');
  return base as Payload;
}
