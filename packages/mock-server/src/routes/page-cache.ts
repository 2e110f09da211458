/**
 * The serialised pages of the key listing, kept until the store changes. A page is a pure
 * function of the store's state and the query (cursors are an HMAC of the position with a
 * key fixed for the service's life), so serving the same JSON text again is byte-for-byte
 * what serialising again would give; each answer is still a fresh `Response` with its own
 * `x-request-id`. JSON.stringify of a 50-key page was a quarter of the endpoint's time.
 */

/** Most pages kept at once. */
const MAX_PAGES = 256;

/** Page texts by query, for one store revision at a time. */
export class PageCache {
  #revision = -1;
  readonly #pages = new Map<string, string>();

  /** The text cached for `key` at `revision`, if any. */
  get(revision: number, key: string): string | undefined {
    if (revision !== this.#revision) {
      this.#revision = revision;
      this.#pages.clear();
    }
    return this.#pages.get(key);
  }

  /** Keeps `text` for `key` (forgetting the oldest page beyond {@link MAX_PAGES}). */
  set(key: string, text: string): void {
    if (this.#pages.size >= MAX_PAGES) this.#pages.delete(this.#pages.keys().next().value!);
    this.#pages.set(key, text);
  }
}
