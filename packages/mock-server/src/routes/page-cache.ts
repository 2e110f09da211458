/**
 * The serialised pages of the key listing, kept until the store changes. A page is a pure
 * function of the store's state and the query (cursors are an HMAC of the position with a
 * key fixed for the service's life), so serving the same JSON text again is byte-for-byte
 * what serialising again would give; each answer is still a fresh `Response` with its own
 * `x-request-id` (bench/RESULTS.md, "Speed tricks kept").
 */

/** Most pages kept at once. */
const MAX_PAGES = 256;

/** A serialised page: the JSON text and its UTF-8 bytes. */
export interface CachedPage {
  text: string;
  utf8: Uint8Array;
}

/** Page texts by query, for one store revision at a time. */
export class PageCache {
  #revision = -1;
  readonly #pages = new Map<string, CachedPage>();

  /** The page cached for `key` at `revision`, if any. */
  get(revision: number, key: string): CachedPage | undefined {
    if (revision !== this.#revision) {
      this.#revision = revision;
      this.#pages.clear();
    }
    return this.#pages.get(key);
  }

  /** Keeps `text` for `key` (forgetting the oldest page beyond {@link MAX_PAGES}) and returns it. */
  set(key: string, text: string): CachedPage {
    if (this.#pages.size >= MAX_PAGES) this.#pages.delete(this.#pages.keys().next().value!);
    const page = { text, utf8: Buffer.from(text, 'utf8') };
    this.#pages.set(key, page);
    return page;
  }
}
