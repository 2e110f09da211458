/**
 * Opaque list cursors: the keyset position of the last key of a page (its `createdAt` and
 * `id`), bound to the workspace and the `q` filter, followed by an HMAC-SHA256 tag, all
 * base64url. A keyset position stays valid when keys are created or deleted meanwhile, so
 * paging never skips nor repeats a key; the tag makes tampered or foreign cursors fail.
 * The HMAC is node:crypto's, synchronous: the mock runs on Node only.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Where the next page starts, and what the cursor is bound to. */
export interface CursorPosition {
  workspaceId: string;
  q: string | null;
  createdAtMs: number;
  id: string;
}

const TAG_BYTES = 32;
/** Above the longest cursor issued: a `q` of 255 code points, each JSON-escaped to 6 bytes, is about 2.3k characters. */
const MAX_CURSOR_LENGTH = 4096;
const encoder = new TextEncoder();

function toBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** Signs and checks cursors with a random key that lives as long as the service. */
export class CursorCodec {
  readonly #key = randomBytes(32);

  #tag(payload: Uint8Array): Buffer {
    return createHmac('sha256', this.#key).update(payload).digest();
  }

  /** Encodes a position as an opaque cursor. */
  async encode(position: CursorPosition): Promise<string> {
    const { workspaceId, q, createdAtMs, id } = position;
    const payload = encoder.encode(JSON.stringify([1, workspaceId, q, createdAtMs, id]));
    const bytes = new Uint8Array(payload.length + TAG_BYTES);
    bytes.set(payload);
    bytes.set(this.#tag(payload), payload.length);
    return toBase64Url(bytes);
  }

  /** Decodes a cursor issued for this workspace and `q`; `undefined` when it is not one. */
  async decode(
    cursor: string,
    workspaceId: string,
    q: string | null,
  ): Promise<CursorPosition | undefined> {
    if (cursor.length > MAX_CURSOR_LENGTH) return undefined;
    const bytes = fromBase64Url(cursor);
    if (!bytes || bytes.length <= TAG_BYTES) return undefined;
    const payload = bytes.subarray(0, bytes.length - TAG_BYTES);
    const tag = bytes.subarray(bytes.length - TAG_BYTES);
    if (!timingSafeEqual(tag, this.#tag(payload))) return undefined;
    const parsed: unknown = JSON.parse(new TextDecoder().decode(payload));
    if (!Array.isArray(parsed) || parsed.length !== 5 || parsed[0] !== 1) return undefined;
    const [, cursorWorkspace, cursorQ, createdAtMs, id] = parsed as [
      1,
      unknown,
      unknown,
      unknown,
      unknown,
    ];
    if (cursorWorkspace !== workspaceId || cursorQ !== q) return undefined;
    if (typeof createdAtMs !== 'number' || typeof id !== 'string') return undefined;
    return { workspaceId, q, createdAtMs, id };
  }
}
