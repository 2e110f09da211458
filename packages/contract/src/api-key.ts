import * as z from 'zod/mini';
import { codePointString, dateTime } from './text-rules';

/*
 * The list-API-keys endpoint (spec sections 2.1 and 4.1), exactly as the mock service sends it.
 * The client runs a forward-compatible copy derived from these (see `forward-compatible.ts`).
 */

/** Largest page size of the list endpoint. */
export const MAX_LIST_LIMIT = 200;
/** Page size when `limit` is omitted. */
export const DEFAULT_LIST_LIMIT = 50;
/** Longest `q`, in code points. */
export const MAX_QUERY_LENGTH = 255;

/** The user who created an API key. */
export const ApiKeyCreatorSchema = z.strictObject({
  id: z.string().check(z.meta({ description: 'User id.' })),
  email: z.string().check(z.meta({ description: 'E-mail address.' })),
  firstName: z.string().check(z.meta({ description: 'Given name.' })),
  lastName: z.string().check(z.meta({ description: 'Family name.' })),
  picture: z.string().check(z.meta({ description: 'Avatar URL.' })),
});

/** An API key's metadata as the list endpoint returns it; never the secret. */
export const ApiKeySchema = z.strictObject({
  id: z.string().check(z.meta({ description: 'Key identifier.' })),
  workspaceId: z.string().check(z.meta({ description: 'Owning workspace.' })),
  name: z.string().check(z.meta({ description: 'Display name of the key.' })),
  prefix: z
    .string()
    .check(z.meta({ description: 'Short leading part of the key, e.g. `cwk_3f9a`.' })),
  createdBy: z.string().check(z.meta({ description: 'Id of the user who created the key.' })),
  createdByUser: ApiKeyCreatorSchema,
  allowedIps: z
    .array(z.string())
    .check(
      z.meta({ description: 'Allowed client addresses (IPs or CIDR ranges); empty means any.' }),
    ),
  expiresAt: z
    .nullable(dateTime())
    .check(z.meta({ description: 'Expiry, or null for a key that never expires.' })),
  lastUsedAt: z
    .nullable(dateTime())
    .check(z.meta({ description: 'Last use, or null for a key never used.' })),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});

/** The `pagination` object of a list page. */
export const PaginationSchema = z.strictObject({
  nextCursor: z.nullable(z.string()).check(
    z.meta({
      description:
        'Opaque cursor of the next page (pass it back unchanged as `cursor`), or null on the last page.',
    }),
  ),
  hasMore: z.boolean().check(z.meta({ description: 'Whether another page follows.' })),
  total: z
    .int()
    .check(z.minimum(0), z.meta({ description: 'Number of keys matching `q`, across all pages.' })),
});

/** One page of `GET /v1/workspaces/{workspaceId}/api-keys`, newest key first. */
export const ApiKeyPageSchema = z.strictObject({
  data: z.array(ApiKeySchema),
  pagination: PaginationSchema,
});

/** The query parameters of the list endpoint, as values (the wire carries them as strings). */
export const ListApiKeysQuerySchema = z.strictObject({
  cursor: z.optional(
    z.string('must be a string').check(
      z.minLength(1, 'must not be empty; omit it for the first page'),
      z.meta({
        description:
          'The `nextCursor` of the previous page, unchanged; omit it for the first page. Opaque: never build one by hand.',
      }),
    ),
  ),
  limit: z.optional(
    z
      .int('must be an integer')
      .check(
        z.minimum(1, `must be an integer from 1 to ${MAX_LIST_LIMIT}`),
        z.maximum(MAX_LIST_LIMIT, `must be an integer from 1 to ${MAX_LIST_LIMIT}`),
        z.meta({ description: 'Page size.', default: DEFAULT_LIST_LIMIT }),
      ),
  ),
  q: z.optional(
    codePointString(0, MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`).check(
      z.meta({ description: 'Matches part of the key name, case-insensitively.' }),
    ),
  ),
});
