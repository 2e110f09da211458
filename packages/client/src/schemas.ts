import {
  CreateWebsiteRequestSchema,
  ApiKeyPageSchema as PageSchema,
  WebsiteSchema as WebsiteResponseSchema,
} from '@cspwatch/contract';
import type * as z from 'zod/mini';

/*
 * Every shape is defined once, in the contract (packages/contract), and the OpenAPI document
 * is generated from the same schemas. Requests are strict; responses are open: objects keep
 * unknown fields, `role` is any string, `usageLimit` any integer, and fields the service may
 * send as null may also be absent. Only what breaks the documented types fails validation,
 * and a `total` a JavaScript number cannot hold exactly.
 */

/**
 * One page of `GET /v1/workspaces/{workspaceId}/api-keys`.
 *
 * @example
 * ```ts
 * const page: ApiKeyPage = ApiKeyPageSchema.parse(json);
 * ```
 */
export const ApiKeyPageSchema = PageSchema;

/**
 * An API key's metadata as the list endpoint returns it (never the secret).
 *
 * @example
 * ```ts
 * const key: ApiKey = ApiKeySchema.parse(json);
 * ```
 */
export const ApiKeySchema = ApiKeyPageSchema.shape.data._zod.def.element;

/**
 * The user who created an API key.
 *
 * @example
 * ```ts
 * const user = ApiKeyCreatorSchema.parse(json);
 * ```
 */
export const ApiKeyCreatorSchema = ApiKeySchema.shape.createdByUser;

/**
 * The `pagination` object of a list page. `total` counts every item matching the query; a
 * `total` above 2^53 - 1 (`Number.MAX_SAFE_INTEGER`), which a JavaScript number cannot hold
 * exactly, fails validation (issue at `pagination.total` saying so) rather than read wrong.
 *
 * @example
 * ```ts
 * const { hasMore, nextCursor } = PaginationSchema.parse(json.pagination);
 * ```
 */
export const PaginationSchema = ApiKeyPageSchema.shape.pagination;

/**
 * A website, as `POST /v1/workspaces/{workspaceId}/websites` returns it. `usageLimit` is any
 * integer, negative too (its unit and meaning are not stated; `-1` often means no limit);
 * beyond 2^53 it reads as the nearest JavaScript number (`1e21` exactly).
 *
 * @example
 * ```ts
 * const website: Website = WebsiteSchema.parse(json);
 * ```
 */
export const WebsiteSchema = WebsiteResponseSchema;

/**
 * Ingestion settings of a website, as returned.
 *
 * @example
 * ```ts
 * const settings = WebsiteSettingsSchema.parse(website.settings);
 * ```
 */
export const WebsiteSettingsSchema = WebsiteSchema.shape.settings;

/**
 * The body of a create-website request, checked before anything is sent: the schema the
 * service validates with. A field the API does not define is refused at every level, inside
 * `settings` too: a client cannot know that the server accepts a field the client does not
 * know, so passing it through would turn a typo into silently ignored data.
 *
 * @example
 * ```ts
 * const input: CreateWebsiteInput = { name: 'Shop', url: 'https://shop.example.com' };
 * ```
 */
export const CreateWebsiteInputSchema = CreateWebsiteRequestSchema;

/** An API key's metadata. Unknown fields sent by the server are kept. */
export type ApiKey = z.infer<typeof ApiKeySchema>;
/** Pagination details of a list page. */
export type Pagination = z.infer<typeof PaginationSchema>;
/** A website, including the `endpointUrl` browsers send reports to. */
export type Website = z.infer<typeof WebsiteSchema>;
/** Ingestion settings of a website. */
export type WebsiteSettings = z.infer<typeof WebsiteSettingsSchema>;
/** The argument of `client.websites.create`. */
export type CreateWebsiteInput = z.input<typeof CreateWebsiteInputSchema>;
