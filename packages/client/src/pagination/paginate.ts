import { CspwatchPaginationError } from '../errors/pagination-error';
import { InputChecker } from '../validation/input-checker';
import { RepeatDetector } from './repeat-detector';

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
  /** The `x-request-id` of the response that carried this page: quote it to support. */
  requestId: string | undefined;
}

/** The most items `toArray()` collects when no `max` is given, before it throws. */
export const DEFAULT_TO_ARRAY_CAP = 10_000;

/** Options of {@link PageIterable.toArray}. */
export interface ToArrayOptions {
  /**
   * The most items to collect; fetching stops once this many are collected. Without it,
   * a list longer than 10,000 items throws {@link CspwatchPaginationError} (`too_many_items`)
   * rather than filling memory; `Infinity` lifts the cap.
   * @default 10000, enforced by an error
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
  /** Collects items into an array: at most `max`, or throws past 10,000 without `max`. */
  toArray(options?: ToArrayOptions): Promise<T[]>;
}

/** Fetches the page at `cursor` (`undefined` for the beginning). */
export type FetchPage<P> = (cursor: string | undefined) => Promise<P>;

/**
 * Turns a page fetcher into a {@link PageIterable}. Follows `nextCursor` while `hasMore`
 * (also past empty pages); stops with {@link CspwatchPaginationError} if the server repeats
 * a cursor or says `hasMore` without a cursor. Holds one page at a time and O(1) state
 * otherwise. The fetcher builds its errors with the cursor of the page. Internal.
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
      const page = await fetchPage(cursor);
      const { hasMore, nextCursor } = page.pagination;
      yield page;
      if (!hasMore) return;
      const iteration = { iteration: { cursor } };
      // `hasMore` without a cursor: stopping here would silently truncate the list.
      if (nextCursor === undefined || nextCursor === null || nextCursor === '') {
        throw new CspwatchPaginationError({ code: 'missing_cursor' }, iteration);
      }
      if (detector.repeats(cursor, nextCursor)) {
        throw new CspwatchPaginationError(
          { code: 'repeated_cursor', cursor: nextCursor },
          iteration,
        );
      }
      cursor = nextCursor;
    }
  }

  /*
   * Items one at a time. A plain iterator rather than an async generator: an item of the
   * page in hand costs one resolved promise, where `yield*` costs several microtask turns
   * per item (bench/RESULTS.md, "Speed tricks kept", has the paired figure).
   */
  function items(): AsyncIterator<T> {
    const source = pages();
    let data: T[] = [];
    let index = 0;
    let pending: Promise<IteratorResult<T>> | undefined;
    const refill = async (): Promise<IteratorResult<T>> => {
      while (true) {
        const page = await source.next();
        if (page.done) return { done: true, value: undefined };
        ({ data } = page.value);
        index = 0;
        if (data.length > 0) return { done: false, value: data[index++] as T };
      }
    };
    return {
      next() {
        // A call made while a page is on its way waits for it, so no item is lost or repeated.
        if (pending) {
          const again = () => this.next();
          return pending.then(again, again);
        }
        if (index < data.length) return Promise.resolve({ done: false, value: data[index++] as T });
        pending = refill().finally(() => {
          pending = undefined;
        });
        return pending;
      },
      async return() {
        data = [];
        await source.return(undefined);
        return { done: true, value: undefined };
      },
    };
  }

  const list: PageIterable<T, P> = {
    [Symbol.asyncIterator]: items,
    pages,
    async firstPage() {
      signal?.throwIfAborted();
      return fetchPage(startCursor);
    },
    async toArray(options?: ToArrayOptions) {
      const given = options?.max;
      if (given !== undefined && given !== Number.POSITIVE_INFINITY) {
        const check = new InputChecker();
        check.integer('max', given, 0, Number.MAX_SAFE_INTEGER);
        check.throwIfAny();
      }
      const max = given ?? DEFAULT_TO_ARRAY_CAP;
      const result: T[] = [];
      if (max === 0) return result;
      for await (const item of list) {
        if (given === undefined && result.length === max) {
          throw new CspwatchPaginationError({ code: 'too_many_items', max });
        }
        result.push(item);
        if (given !== undefined && result.length >= max) break;
      }
      return result;
    },
  };
  return list;
}
