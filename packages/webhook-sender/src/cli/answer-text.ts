/**
 * The receiver's answer as the CLIs print it: whole up to a byte cap, and when longer, cut at
 * a safe boundary (between JSON tokens, at white space in text, never inside a UTF-8
 * sequence) with the number of bytes left out.
 */

/** Bytes of an answer the CLIs read: enough to say how much of a long one was left out. */
export const ANSWER_READ_BYTES = 65_536;

/** Bytes of an answer printed before it is cut. */
export const ANSWER_SHOWN_BYTES = 2048;

/** An answer cut for printing. */
export interface CutAnswer {
  /** What is printed. */
  readonly text: string;
  /** UTF-8 bytes of the answer that are not printed (0 when it is whole). */
  readonly omittedBytes: number;
}

const JSON_DELIMITERS = new Set([',', ':', '{', '}', '[', ']', ' ', '\t', '\n', '\r']);

/** The UTF-8 size of one code point, from its first UTF-16 unit. */
function utf8Size(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  return codePoint < 0x10000 ? 3 : 4;
}

/** The largest UTF-16 index whose prefix fits `capBytes` and ends on a code point boundary. */
function fittingEnd(text: string, capBytes: number): number {
  let bytes = 0;
  let index = 0;
  while (index < text.length) {
    const codePoint = text.codePointAt(index) as number;
    const size = utf8Size(codePoint);
    if (bytes + size > capBytes) break;
    bytes += size;
    index += codePoint > 0xffff ? 2 : 1;
  }
  return index;
}

/** The last index at or before `end` that falls between two JSON tokens, or 0. */
function jsonBoundary(text: string, end: number): number {
  let inString = false;
  let escaped = false;
  let last = 0;
  for (let index = 0; index < end; index += 1) {
    const char = text[index] as string;
    if (inString) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') {
        inString = false;
        last = index + 1;
      }
    } else if (char === '"') inString = true;
    else if (JSON_DELIMITERS.has(char)) last = index + 1;
  }
  // A token that ends exactly at the cap is whole when a delimiter follows it.
  if (!inString && JSON_DELIMITERS.has(text[end] ?? '')) return end;
  return last;
}

/** The last white space at or before `end` in text, or `end` when a word fills it all. */
function textBoundary(text: string, end: number): number {
  if (/\s/.test(text[end] ?? '')) return end;
  const space = text.slice(0, end).search(/\s\S*$/);
  return space > 0 ? space : end;
}

/**
 * Cuts `text` to at most `capBytes` UTF-8 bytes at a safe boundary and says how many bytes
 * were left out. JSON (it starts with `{` or `[`) is cut between tokens; other text at white
 * space, or at a code point boundary when one word fills the cap.
 *
 * @example
 * ```ts
 * cutAnswer('{"code":"signature_mismatch","detail":"…"}', 20); // { text: '{"code":', omittedBytes: … }
 * ```
 */
export function cutAnswer(text: string, capBytes: number = ANSWER_SHOWN_BYTES): CutAnswer {
  const total = Buffer.byteLength(text, 'utf8');
  if (total <= capBytes) return { text, omittedBytes: 0 };
  const end = fittingEnd(text, capBytes);
  const json = /^\s*[[{]/.test(text);
  const cut = (json ? jsonBoundary(text, end) : textBoundary(text, end)) || end;
  const shown = text.slice(0, cut).trimEnd();
  return { text: shown, omittedBytes: total - Buffer.byteLength(shown, 'utf8') };
}
