import { invalidOptions, WebhookVerificationError } from '../errors';
import { createChunkEncoder } from './chunk-bytes';

/** A Node readable stream as `IncomingMessage` is: only what reading the body needs. */
export interface ReadableBodyLike {
  /** Subscribes to `data`, `end` and `error`. */
  on(event: 'data' | 'end' | 'error', listener: (...args: never[]) => void): unknown;
  /** Removes a listener added with `on`. */
  removeListener(event: 'data' | 'end' | 'error', listener: (...args: never[]) => void): unknown;
  /** Stops the flow of `data` events. */
  pause?(): unknown;
}

/** Default cap on a body an adapter reads itself: 1 MiB, well above any alert. */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

/** The error for a body over the cap. */
export function bodyTooLarge(maxBodyBytes: number): WebhookVerificationError {
  return new WebhookVerificationError(
    'body_too_large',
    `The request body is larger than maxBodyBytes (${maxBodyBytes} bytes); it was not read.`,
  );
}

/** The error for a body stream that failed mid-read; `cause` is the stream's error. */
export function bodyReadFailed(cause: unknown): WebhookVerificationError {
  return new WebhookVerificationError(
    'body_read_failed',
    'The request body stream failed before its end (client gone, or a stream error); see cause.',
    { cause },
  );
}

/**
 * Reads a Node readable stream (an `IncomingMessage`, or any `Readable`) into one byte
 * array, refusing more than `maxBodyBytes` whatever its chunks are (bytes or text). A
 * stream error becomes `body_read_failed` with the error as `cause`.
 */
export function readBody(stream: ReadableBodyLike, maxBodyBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    const encoder = createChunkEncoder();
    let size = 0;
    const onData = (chunk: unknown): void => {
      let bytes: Uint8Array;
      try {
        bytes = encoder.bytes(chunk);
      } catch (error) {
        cleanup();
        stream.pause?.();
        reject(error);
        return;
      }
      size += bytes.byteLength;
      if (size > maxBodyBytes) {
        cleanup();
        stream.pause?.();
        reject(bodyTooLarge(maxBodyBytes));
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = (): void => {
      cleanup();
      try {
        encoder.end();
      } catch (error) {
        reject(error);
        return;
      }
      resolve(concatChunks(chunks, size));
    };
    const onError = (error: unknown): void => {
      cleanup();
      reject(bodyReadFailed(error));
    };
    const cleanup = (): void => {
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

/** Joins chunks totalling `size` bytes; a lone chunk is returned as is (no copy). */
export function concatChunks(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** Refuses up front a request whose `content-length` already exceeds the cap. */
export function assertDeclaredLength(
  contentLength: string | undefined,
  maxBodyBytes: number,
): void {
  if (contentLength !== undefined && Number(contentLength) > maxBodyBytes) {
    throw bodyTooLarge(maxBodyBytes);
  }
}

/** Validates the `maxBodyBytes` option at construction. */
export function checkMaxBodyBytes(value: number | undefined): number {
  const maxBodyBytes = value ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw invalidOptions('maxBodyBytes must be a positive integer number of bytes');
  }
  return maxBodyBytes;
}
