import { WebhookVerificationError } from '../errors';
import { bodyTooLarge, concatChunks } from './read-body';

/** The error for a body that something else already read. */
export function bodyAlreadyRead(cause?: unknown): WebhookVerificationError {
  return new WebhookVerificationError(
    'body_not_raw',
    'Could not read the request body: it was probably read already. Verify before reading ' +
      'the body, or pass request.clone().',
    { cause },
  );
}

/**
 * Reads a Fetch body stream into one byte array, counting as it goes: past `maxBodyBytes`
 * it cancels the stream and throws `body_too_large`. The bytes are kept exactly as received
 * (a single chunk is returned as is, several are joined once).
 */
export async function readBodyStream(
  stream: ReadableStream<Uint8Array>,
  maxBodyBytes: number,
): Promise<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = stream.getReader();
  } catch (error) {
    throw bodyAlreadyRead(error);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBodyBytes) {
      // Stop the sender: nothing more of this body is read. A failed cancel changes nothing.
      reader.cancel().catch(() => {});
      throw bodyTooLarge(maxBodyBytes);
    }
    chunks.push(value);
  }
  return concatChunks(chunks, size);
}
