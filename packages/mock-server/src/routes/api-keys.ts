import { codePointLength } from '@cspwatch/contract';
import { type ProblemFieldError, problem, validationProblem } from '../http/problem';
import { textResponse } from '../http/response-text';
import { isAfterPosition } from '../store/key-order';
import { authorize } from './auth';
import type { RouteContext, RouteHandler } from './context';

/** Page size when `limit` is omitted. */
export const DEFAULT_LIMIT = 50;
/** Largest page size. */
export const MAX_LIMIT = 200;

interface ListQuery {
  cursor: string | null;
  limit: number;
  q: string | null;
}

/** Validates `cursor`, `limit` and `q`, collecting every invalid field. */
function parseQuery(
  params: URLSearchParams,
): { query: ListQuery } | { errors: ProblemFieldError[] } {
  const errors: ProblemFieldError[] = [];
  const single = (name: string): string | null => {
    const values = params.getAll(name);
    if (values.length > 1) errors.push({ path: name, message: `Give ${name} at most once.` });
    return values[0] ?? null;
  };
  const cursor = single('cursor');
  const rawLimit = single('limit');
  const q = single('q');
  let limit = DEFAULT_LIMIT;
  if (rawLimit !== null) {
    limit = /^\d{1,4}$/.test(rawLimit) ? Number(rawLimit) : Number.NaN;
    if (!(limit >= 1 && limit <= MAX_LIMIT)) {
      errors.push({ path: 'limit', message: `Must be an integer from 1 to ${MAX_LIMIT}.` });
    }
  }
  if (q !== null && codePointLength(q) > 255) {
    errors.push({ path: 'q', message: 'Must be at most 255 characters long.' });
  }
  if (cursor === '')
    errors.push({ path: 'cursor', message: 'Must not be empty; omit it for the first page.' });
  return errors.length > 0 ? { errors } : { query: { cursor, limit, q } };
}

/** `GET /v1/workspaces/{workspaceId}/api-keys`: one page of keys, newest first. */
export const listApiKeys: RouteHandler = async (request, [workspaceId], context) => {
  const { store, pages } = context;
  const access = authorize(request, store, workspaceId!, 'api_keys');
  if (!access.ok) return access.response;
  const parsed = parseQuery(new URL(request.url).searchParams);
  if ('errors' in parsed) return validationProblem(parsed.errors);
  const key = JSON.stringify([access.workspace.id, parsed.query]);
  let cached = pages.get(store.revision, key);
  if (cached === undefined) {
    const page = await buildPage(access.workspace.id, parsed.query, context);
    if (page instanceof Response) return page;
    cached = pages.set(key, JSON.stringify(page));
  }
  const init = { status: 200, headers: { 'content-type': 'application/json' } };
  return textResponse(cached.text, init, cached.utf8);
};

/** One page of keys for a valid query, or the `invalid_cursor` problem. */
async function buildPage(
  workspaceId: string,
  { cursor, limit, q }: ListQuery,
  { store, cursors }: RouteContext,
): Promise<unknown> {
  const needle = q?.toLowerCase() ?? '';
  const keys = store.apiKeysOf(workspaceId);
  const matching =
    needle === '' ? keys : keys.filter((key) => key.name.toLowerCase().includes(needle));
  let start = 0;
  if (cursor !== null) {
    const position = await cursors.decode(cursor, workspaceId, q);
    if (!position) {
      return problem({
        status: 400,
        code: 'invalid_cursor',
        detail:
          'The cursor is not one this endpoint issued for this workspace and q; restart without cursor.',
        errors: [
          { path: 'cursor', message: 'Pass the nextCursor of the previous page, unchanged.' },
        ],
      });
    }
    start = matching.findIndex((key) => isAfterPosition(key, position));
    if (start === -1) start = matching.length;
  }
  const page = matching.slice(start, start + limit);
  const hasMore = start + limit < matching.length;
  const last = page.at(-1);
  const nextCursor =
    hasMore && last
      ? await cursors.encode({
          workspaceId,
          q,
          createdAtMs: Date.parse(last.createdAt),
          id: last.id,
        })
      : null;
  return { data: page, pagination: { nextCursor, hasMore, total: matching.length } };
}
