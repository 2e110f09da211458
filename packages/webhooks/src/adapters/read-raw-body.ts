import { WebhookVerificationError } from '../errors';
import { checkMaxBodyBytes, type ReadableBodyLike, readBody } from './read-body';
import { readBodyStream } from './read-stream';

/** Options of {@link readRawBody}. */
export interface ReadRawBodyOptions {
  /**
   * Largest body read, in bytes; past it reading stops with `body_too_large`.
   * @default 1048576
   */
  maxBodyBytes?: number;
}

/**
 * Reads a body stream into the exact bytes to verify: a Web `ReadableStream` (bytes or
 * text chunks) or a Node `Readable` such as an `IncomingMessage`. The size cap counts
 * bytes whatever the chunk type; a stream that fails mid-read rejects with
 * `body_read_failed` and the stream's error as `cause`.
 *
 * @example
 * ```ts
 * const body = await readRawBody(req, { maxBodyBytes: 65_536 });
 * const event = await verifyWebhook({ body, headers: req.headers, secret });
 * ```
 */
export function readRawBody(
  stream: ReadableStream<unknown> | ReadableBodyLike,
  options: ReadRawBodyOptions = {},
): Promise<Uint8Array> {
  const maxBodyBytes = checkMaxBodyBytes(options.maxBodyBytes);
  if (typeof (stream as ReadableStream<unknown> | null)?.getReader === 'function') {
    return readBodyStream(stream as ReadableStream<unknown>, maxBodyBytes);
  }
  if (typeof (stream as ReadableBodyLike | null)?.on !== 'function') {
    throw new WebhookVerificationError(
      'body_not_raw',
      'readRawBody takes the request stream (a ReadableStream or a Node Readable), not a parsed body',
    );
  }
  return readBody(stream as ReadableBodyLike, maxBodyBytes);
}
