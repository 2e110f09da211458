import * as z from 'zod/mini';
import { DateTimeSchema, exactCount } from './text-rules';

/*
 * The list-API-keys responses (docs/api-contract.md), as a client may rely on them: open
 * objects (a response may grow fields), types checked, and `expiresAt`, `lastUsedAt` and
 * `nextCursor` null or absent (the spec does not say which). The document and the client's
 * reading are both these schemas.
 */

/** The user who created an API key. */
export const ApiKeyCreatorSchema = z.looseObject({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  picture: z.string(),
});

/** An API key's metadata as the list endpoint returns it; never the secret. */
export const ApiKeySchema = z.looseObject({
  id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  prefix: z.string(),
  createdBy: z.string(),
  createdByUser: ApiKeyCreatorSchema,
  allowedIps: z.array(z.string()),
  expiresAt: z.optional(z.nullable(DateTimeSchema)),
  lastUsedAt: z.optional(z.nullable(DateTimeSchema)),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});

/**
 * The `pagination` object of a list page. `total` is read exactly or refused: beyond 2^53 - 1
 * a JavaScript number cannot hold it, so it fails with a message that says so.
 */
export const PaginationSchema = z.looseObject({
  nextCursor: z.optional(z.nullable(z.string())),
  hasMore: z.boolean(),
  total: exactCount(),
});

/** One page of `GET /v1/workspaces/{workspaceId}/api-keys`, newest key first. */
export const ApiKeyPageSchema = z.looseObject({
  data: z.array(ApiKeySchema),
  pagination: PaginationSchema,
});
