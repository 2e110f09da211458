import { CspwatchError, type CspwatchErrorOptions } from './cspwatch-error';

const CURSOR_PREVIEW = 16;
const preview = (cursor: string) => {
  const points = [...cursor.slice(0, CURSOR_PREVIEW * 2)];
  return points.length > CURSOR_PREVIEW ? `${points.slice(0, CURSOR_PREVIEW).join('')}…` : cursor;
};

const PAGINATION_MESSAGES = {
  missing_cursor:
    'The server said hasMore: true but sent no nextCursor; stopped rather than truncate',
  repeated_cursor: (cursor: string) =>
    `The server repeated the cursor "${preview(cursor)}"; stopped to avoid an endless loop`,
  too_many_items: (max: number) =>
    `The list has more than ${max} items: pass toArray({ max: n }), or toArray({ max: Infinity }) to lift the cap`,
};

/** What went wrong with a list, as {@link CspwatchPaginationError}'s constructor takes it. */
export type CspwatchPaginationProblem =
  | {
      /** The server sent a cursor it had sent before. */
      code: 'repeated_cursor';
      /** The cursor that came back. */
      cursor: string;
    }
  | {
      /** The server claimed more pages but sent no cursor. */
      code: 'missing_cursor';
    }
  | {
      /** `toArray()` passed its cap. */
      code: 'too_many_items';
      /** The cap that was passed. */
      max: number;
    };

/**
 * A list that cannot be collected safely: the server repeated a cursor (`repeated_cursor`,
 * iteration would loop forever), claimed more pages without a cursor (`missing_cursor`,
 * stopping would truncate silently), or `toArray()` passed its default cap (`too_many_items`).
 *
 * @example
 * ```ts
 * if (error instanceof CspwatchPaginationError && error.code === 'missing_cursor') alertOps();
 * ```
 */
export class CspwatchPaginationError extends CspwatchError {
  /** The marker of this class, recognised across copies of the package. */
  static override readonly kind: string = '@cspwatch/client.CspwatchPaginationError';
  /** The class name, `'CspwatchPaginationError'`. */
  override readonly name = 'CspwatchPaginationError' as const;
  /** Which of the three failures. */
  override readonly code: CspwatchPaginationProblem['code'];
  /** With `code: 'repeated_cursor'`: the cursor that came back; otherwise `undefined`. */
  readonly repeatedCursor: string | undefined;

  /** Creates the error for one of the three failures. */
  constructor(problem: CspwatchPaginationProblem, options: CspwatchErrorOptions = {}) {
    const message =
      problem.code === 'missing_cursor'
        ? PAGINATION_MESSAGES.missing_cursor
        : problem.code === 'repeated_cursor'
          ? PAGINATION_MESSAGES.repeated_cursor(problem.cursor)
          : PAGINATION_MESSAGES.too_many_items(problem.max);
    super(message, problem.code, options);
    this.code = problem.code;
    this.repeatedCursor = problem.code === 'repeated_cursor' ? problem.cursor : undefined;
  }
}
