import { WebhookVerificationError } from '../errors';
import { toRawBody } from '../raw-body';

const encoder = new TextEncoder();

/** Tells whether a UTF-16 code unit is the first half of a surrogate pair. */
const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** Turns the chunks of one body stream into bytes, one chunk at a time. */
export interface ChunkEncoder {
  /** The bytes of one chunk (text is encoded as UTF-8). */
  bytes(chunk: unknown): Uint8Array;
  /** Checks that the stream did not end halfway through a surrogate pair. */
  end(): void;
}

/**
 * Bytes as they are, text as UTF-8, any other ArrayBuffer view or ArrayBuffer by its bytes;
 * anything else (an object-mode stream) is `body_not_raw`. A surrogate pair split across two
 * text chunks is joined before encoding; a lone surrogate is `body_not_well_formed`, as for a
 * string body, rather than silently becoming U+FFFD.
 */
export function createChunkEncoder(): ChunkEncoder {
  let pendingHigh = '';
  const text = (chunk: string): Uint8Array => {
    let joined = pendingHigh + chunk;
    pendingHigh = '';
    if (joined !== '' && isHighSurrogate(joined.charCodeAt(joined.length - 1))) {
      pendingHigh = joined.slice(-1);
      joined = joined.slice(0, -1);
    }
    return encoder.encode(toRawBody(joined) as string);
  };
  return {
    bytes(chunk) {
      if (typeof chunk === 'string') return text(chunk);
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
    },
    end() {
      if (pendingHigh !== '') toRawBody(pendingHigh);
    },
  };
}
