import { CspwatchPaginationError, isCspwatchError } from './errors';
import { RepeatDetector } from './repeat-detector';
import { InputChecker } from './validate-input';

/** A page of a cursor-paginated list. */
export interface CursorPage<T> {
  /** The items of this page. */
  data: T[];
  /** Where the list goes on: `nextCursor` is opaque, pass it back as received. */
  pagination: {
    /** Opaque cursor of the next page. */
    nextCursor?: string | null | undefined;
    /** Whether another page follows. */
    hasMore: boolean;
    /** Number of items matching the query, across all pages. */
    total: number;
  };
}

/** Options of {@link PageIterable.toArray}. */
export interface ToArrayOptions {
  /**
   * The most items to collect; fetching stops once this many are collected.
   * @default Infinity
   */
  max?: number;
}

/**
 * A lazily fetched, cursor-paginated list. Iterate it with `for await` to get every item
 * across pages; nothing is fetched before iteration starts, and only one page is held in
 * memory at a time. Each iteration starts again from the starting cursor.
 *
 * @example
 * ```ts
 * for await (const key of client.apiKeys.list(workspaceId)) console.log(key.name);
 * ```
 */
export interface PageIterable<T, P extends CursorPage<T> = CursorPage<T>> extends AsyncIterable<T> {
  /** Iterates whole pages (`data` and `pagination`, including `total`). */
  pages(): AsyncIterable<P>;
  /** Fetches the first page only. */
  firstPage(): Promise<P>;
  /** Collects items into an array, stopping after `max` items. */
  toArray(options?: ToArrayOptions): Promise<T[]>;
}

/** Fetches the page at `cursor` (`undefined` for the beginning). */
export type FetchPage<P> = (cursor: string | undefined) => Promise<P>;

/** Records the cursor of the failed page on a client error, so the caller can resume. */
function markFailedPage(error: unknown, cursor: string | undefined): unknown {
  if (isCspwatchError(error)) {
    error.cursor = cursor;
    error.failedDuringIteration = true;
  }
  return error;
}

/**
 * Turns a page fetcher into a {@link PageIterable}. Follows `nextCursor` while `hasMore`
 * (also past empty pages); stops with {@link CspwatchPaginationError} if the server repeats
 * a cursor or says `hasMore` without a cursor. Holds one page at a time and O(1) state
 * otherwise. Internal building block of the list methods.
 */
export function paginate<T, P extends CursorPage<T>>(
  fetchPage: FetchPage<P>,
  startCursor: string | undefined,
  signal: AbortSignal | undefined,
): PageIterable<T, P> {
  async function* pages(): AsyncGenerator<P> {
    const detector = new RepeatDetector(startCursor);
    let cursor = startCursor;
    while (true) {
      signal?.throwIfAborted();
      let page: P;
      try {
        page = await fetchPage(cursor);
      } catch (error) {
        throw markFailedPage(error, cursor);
      }
      const { hasMore, nextCursor } = page.pagination;
      yield page;
      if (!hasMore) return;
      // `hasMore` without a cursor: stopping here would silently truncate the list.
      if (nextCursor === undefined || nextCursor === null || nextCursor === '') {
        throw markFailedPage(new CspwatchPaginationError(undefined), cursor);
      }
      if (detector.repeats(cursor, nextCursor)) {
        throw markFailedPage(new CspwatchPaginationError(nextCursor), cursor);
      }
      cursor = nextCursor;
    }
  }

  async function* items(): AsyncGenerator<T> {
    for await (const page of pages()) yield* page.data;
  }

  return {
    [Symbol.asyncIterator]: () => items(),
    pages,
    async firstPage() {
      signal?.throwIfAborted();
      try {
        return await fetchPage(startCursor);
      } catch (error) {
        throw markFailedPage(error, startCursor);
      }
    },
    async toArray(options?: ToArrayOptions) {
      const max = options?.max ?? Number.POSITIVE_INFINITY;
      if (max !== Number.POSITIVE_INFINITY) {
        const check = new InputChecker();
        check.integer('max', max, 0, Number.MAX_SAFE_INTEGER);
        check.throwIfAny();
      }
      const result: T[] = [];
      if (max === 0) return result;
      for await (const item of items()) {
        result.push(item);
        if (result.length >= max) break;
      }
      return result;
    },
  };
}
