import * as z from 'zod/mini';
import { count, DateTimeSchema } from './text-rules';

/*
 * The list-API-keys responses (spec sections 2.1 and 4.1), exactly as the mock service sends
 * them. The client reads them through `forwardCompatible` copies.
 */

/** The user who created an API key. */
export const ApiKeyCreatorSchema = z.strictObject({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  picture: z.string(),
});

/** An API key's metadata as the list endpoint returns it; never the secret. */
export const ApiKeySchema = z.strictObject({
  id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  prefix: z.string(),
  createdBy: z.string(),
  createdByUser: ApiKeyCreatorSchema,
  allowedIps: z.array(z.string()),
  expiresAt: z.nullable(DateTimeSchema),
  lastUsedAt: z.nullable(DateTimeSchema),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});

/** The `pagination` object of a list page. */
export const PaginationSchema = z.strictObject({
  nextCursor: z.nullable(z.string()),
  hasMore: z.boolean(),
  total: count(),
});

/** One page of `GET /v1/workspaces/{workspaceId}/api-keys`, newest key first. */
export const ApiKeyPageSchema = z.strictObject({
  data: z.array(ApiKeySchema),
  pagination: PaginationSchema,
});
