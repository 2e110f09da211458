import * as z from 'zod/mini';
import { codePointLength } from './text-rules';

/** Largest page size of the list endpoint. */
export const MAX_LIST_LIMIT = 200;
/** Page size when `limit` is omitted. */
export const DEFAULT_LIST_LIMIT = 50;
/** Longest `q`, in code points. */
export const MAX_QUERY_LENGTH = 255;

const LIMIT_RULE = `must be an integer from 1 to ${MAX_LIST_LIMIT}`;

/** The query parameters of `GET /v1/workspaces/{workspaceId}/api-keys`, as values. */
export const ListApiKeysQuerySchema = z.strictObject({
  cursor: z.optional(
    z
      .string('must be a string')
      .check(z.minLength(1, 'must not be empty; omit it for the first page')),
  ),
  limit: z.optional(
    z
      .number(LIMIT_RULE)
      .check(
        z.refine(Number.isSafeInteger, LIMIT_RULE),
        z.minimum(1, LIMIT_RULE),
        z.maximum(MAX_LIST_LIMIT, LIMIT_RULE),
      ),
  ),
  q: z.optional(
    z
      .string('must be a string')
      .check(
        z.refine(
          (value) => codePointLength(value) <= MAX_QUERY_LENGTH,
          `must be at most ${MAX_QUERY_LENGTH} characters`,
        ),
      ),
  ),
});
