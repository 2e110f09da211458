import { checkInteger, type Issue } from '@cspwatch/internal';
import { invalidOptions, WebhookVerificationError } from '../errors';

/**
 * A request body exactly as received: its text, or its bytes as a `Uint8Array` (a Node
 * `Buffer` is one), an `ArrayBuffer` (`await request.arrayBuffer()`) or a `DataView`.
 */
export type RawBody = string | ArrayBuffer | ArrayBufferView;

/** A Node readable stream as `IncomingMessage` is: only what reading the body needs. */
export interface ReadableBodyLike {
  /** Subscribes to `data`, `end` and `error`. */
  on(event: 'data' | 'end' | 'error', listener: (...args: never[]) => void): unknown;
  /** Removes a listener added with `on`. */
  removeListener(event: 'data' | 'end' | 'error', listener: (...args: never[]) => void): unknown;
  /** Stops the flow of `data` events. */
  pause?(): unknown;
}

/** The parts of a Fetch `Request` that verification reads. */
export interface RequestLike {
  /** The request headers. */
  readonly headers: {
    /** Returns the header's value, or `null` when it is absent. */
    get(name: string): string | null;
  };
  /** The body stream (`null` for an empty body), read with a running byte count. */
  readonly body?: ReadableStream<Uint8Array> | null;
  /** True once something read the body. */
  readonly bodyUsed?: boolean;
  /** Reads the body as bytes; used only when `body` is not available. */
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** Options of {@link readRawBody}. */
export interface ReadRawBodyOptions {
  /**
   * Largest body read, in bytes; past it reading stops with `body_too_large`.
   * @default 1048576
   */
  maxBodyBytes?: number;
}

/** Default cap on a body an adapter reads itself: 1 MiB, well above any alert. */
const DEFAULT_MAX_BODY_BYTES = 1_048_576;

// A lone surrogate (no pair) is the only code point the u flag reports as Cs.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Accepts a raw body and gives it as text or bytes. Refuses a body that a framework already
 * parsed into an object, and text holding a lone surrogate (no byte sequence has that text).
 */
export function toRawBody(body: unknown): string | Uint8Array {
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string') {
    if (!LONE_SURROGATE.test(body)) return body;
    throw new WebhookVerificationError(
      'body_not_well_formed',
      'The body text has a lone surrogate: pass the raw bytes',
    );
  }
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body))
    return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  throw new WebhookVerificationError(
    'body_not_raw',
    // Named by its kind only: the value could be anything, a secret included.
    // The adapters say how to keep the raw body in each framework.
    `Pass the raw body (text or bytes), not ${typeof body === 'object' && body !== null ? 'a parsed object' : typeof body}: the signature covers the exact bytes`,
  );
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

/** Reads a Fetch request's exact body bytes, refusing more than `maxBodyBytes`. */
export async function readRequestBody(
  request: RequestLike,
  maxBodyBytes: number,
): Promise<Uint8Array> {
  assertDeclaredLength(request.headers.get('content-length') ?? undefined, maxBodyBytes);
  if (request.bodyUsed === true) throw bodyAlreadyRead();
  const stream = request.body;
  if (stream === null) return new Uint8Array(0);
  if (stream !== undefined) return readBodyStream(stream, maxBodyBytes);
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await request.arrayBuffer());
  } catch (error) {
    throw bodyAlreadyRead(error);
  }
  if (bytes.byteLength > maxBodyBytes) throw bodyTooLarge(maxBodyBytes);
  return bytes;
}

/**
 * Reads a Node readable stream (an `IncomingMessage`, or any `Readable`) into one byte
 * array, refusing more than `maxBodyBytes` whatever its chunks are (bytes or text). A
 * stream error becomes `body_read_failed` with the error as `cause`.
 */
export function readBody(stream: ReadableBodyLike, maxBodyBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const sink = createBodySink(maxBodyBytes);
    const onData = (chunk: unknown): void => {
      try {
        sink.push(chunk);
      } catch (error) {
        cleanup();
        stream.pause?.();
        reject(error);
      }
    };
    const onEnd = (): void => {
      cleanup();
      try {
        resolve(sink.end());
      } catch (error) {
        reject(error);
      }
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

/**
 * Reads a Web `ReadableStream` into one byte array, counting bytes as it goes, whatever the
 * chunks are (bytes, text, other views): past `maxBodyBytes` it cancels the stream and
 * throws `body_too_large`. A stream that errors mid-read is `body_read_failed` with the
 * error as `cause`.
 */
async function readBodyStream(
  stream: ReadableStream<unknown>,
  maxBodyBytes: number,
): Promise<Uint8Array> {
  let reader: ReadableStreamDefaultReader<unknown>;
  try {
    reader = stream.getReader();
  } catch (error) {
    throw bodyAlreadyRead(error);
  }
  const sink = createBodySink(maxBodyBytes);
  for (;;) {
    let result: ReadableStreamReadResult<unknown>;
    try {
      result = await reader.read();
    } catch (error) {
      throw bodyReadFailed(error);
    }
    if (result.done) return sink.end();
    try {
      sink.push(result.value);
    } catch (error) {
      // Stop the sender: nothing more of this body is read. A failed cancel changes nothing.
      reader.cancel().catch(() => {});
      throw error;
    }
  }
}

/** One body's chunks, gathered as bytes and counted against the cap. */
interface BodySink {
  /** Adds one chunk: bytes as they are, text as UTF-8; throws past the cap. */
  push(chunk: unknown): void;
  /** The whole body; a lone chunk is returned as is (the bytes exactly as received). */
  end(): Uint8Array;
}

/**
 * Gathers the chunks of one body stream. Any other ArrayBuffer view or ArrayBuffer counts by
 * its bytes; anything else (an object-mode stream) is `body_not_raw`. A surrogate pair split
 * across two text chunks is joined before encoding; a lone surrogate is
 * `body_not_well_formed`, as for a string body, rather than silently becoming U+FFFD.
 */
function createBodySink(maxBodyBytes: number): BodySink {
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let pendingHigh = '';
  const bytesOf = (chunk: unknown): Uint8Array => {
    if (typeof chunk === 'string') {
      let joined = pendingHigh + chunk;
      pendingHigh = '';
      if (joined !== '' && isHighSurrogate(joined.charCodeAt(joined.length - 1))) {
        pendingHigh = joined.slice(-1);
        joined = joined.slice(0, -1);
      }
      return encoder.encode(toRawBody(joined) as string);
    }
    if (pendingHigh !== '') toRawBody(pendingHigh); // throws body_not_well_formed
    if (chunk instanceof Uint8Array) return chunk;
    if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
    if (ArrayBuffer.isView(chunk)) {
      return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    }
    throw new WebhookVerificationError(
      'body_not_raw',
      `The body stream yielded ${chunk === null ? 'null' : typeof chunk}, not bytes or text: pass a byte stream.`,
    );
  };
  return {
    push(chunk) {
      const bytes = bytesOf(chunk);
      size += bytes.byteLength;
      if (size > maxBodyBytes) throw bodyTooLarge(maxBodyBytes);
      chunks.push(bytes);
    },
    end() {
      if (pendingHigh !== '') toRawBody(pendingHigh);
      if (chunks.length === 1) return chunks[0]!;
      const body = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        body.set(chunk, offset);
        offset += chunk.byteLength;
      }
      return body;
    },
  };
}

/** Tells whether a UTF-16 code unit is the first half of a surrogate pair. */
const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

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
  const issues: Issue[] = [];
  checkInteger(issues, 'maxBodyBytes', value, {
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    unit: 'bytes',
  });
  if (issues.length > 0) throw invalidOptions(...issues);
  return value ?? DEFAULT_MAX_BODY_BYTES;
}

function bodyTooLarge(maxBodyBytes: number): WebhookVerificationError {
  return new WebhookVerificationError(
    'body_too_large',
    `The request body is larger than maxBodyBytes (${maxBodyBytes} bytes); it was not read.`,
  );
}

function bodyReadFailed(cause: unknown): WebhookVerificationError {
  return new WebhookVerificationError(
    'body_read_failed',
    'The request body stream failed before its end (client gone, or a stream error); see cause.',
    { cause },
  );
}

function bodyAlreadyRead(cause?: unknown): WebhookVerificationError {
  return new WebhookVerificationError(
    'body_not_raw',
    'Could not read the request body: it was probably read already. Verify before reading ' +
      'the body, or pass request.clone().',
    { cause },
  );
}
