import { WebhookVerificationError } from '../errors';
import { createChunkEncoder } from './chunk-bytes';
import { bodyReadFailed, bodyTooLarge, concatChunks } from './read-body';

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
 * Reads a Web `ReadableStream` into one byte array, counting bytes as it goes, whatever the
 * chunks are (bytes, text, other views): past `maxBodyBytes` it cancels the stream and
 * throws `body_too_large`. A stream that errors mid-read is `body_read_failed` with the
 * error as `cause`. The bytes are kept exactly as received (one chunk is returned as is).
 */
export async function readBodyStream(
  stream: ReadableStream<unknown>,
  maxBodyBytes: number,
): Promise<Uint8Array> {
  let reader: ReadableStreamDefaultReader<unknown>;
  try {
    reader = stream.getReader();
  } catch (error) {
    throw bodyAlreadyRead(error);
  }
  const chunks: Uint8Array[] = [];
  const encoder = createChunkEncoder();
  let size = 0;
  for (;;) {
    let result: ReadableStreamReadResult<unknown>;
    try {
      result = await reader.read();
    } catch (error) {
      throw bodyReadFailed(error);
    }
    if (result.done) break;
    let bytes: Uint8Array;
    try {
      bytes = encoder.bytes(result.value);
      size += bytes.byteLength;
      if (size > maxBodyBytes) throw bodyTooLarge(maxBodyBytes);
    } catch (error) {
      // Stop the sender: nothing more of this body is read. A failed cancel changes nothing.
      reader.cancel().catch(() => {});
      throw error;
    }
    chunks.push(bytes);
  }
  encoder.end();
  return concatChunks(chunks, size);
}
