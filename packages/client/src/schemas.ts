import {
  CreateWebsiteRequestSchema,
  forwardCompatible,
  ApiKeyPageSchema as StrictApiKeyPage,
  WebsiteSchema as StrictWebsite,
} from '@cspwatch/contract';
import type * as z from 'zod/mini';

/*
 * Every shape is defined once, strictly, in the contract (packages/contract): what the
 * service sends and accepts; the OpenAPI document is generated from the same schemas. The
 * response schemas here are derived with `forwardCompatible`: objects keep unknown fields,
 * fields such as `role` accept any string, and fields the service sends as null may also be
 * absent. Only what breaks the documented shape fails validation.
 */

/**
 * One page of `GET /v1/workspaces/{workspaceId}/api-keys`.
 *
 * @example
 * ```ts
 * const page: ApiKeyPage = ApiKeyPageSchema.parse(json);
 * ```
 */
export const ApiKeyPageSchema = forwardCompatible(StrictApiKeyPage);

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
 * The `pagination` object of a list page. `total` counts every item matching the query.
 *
 * @example
 * ```ts
 * const { hasMore, nextCursor } = PaginationSchema.parse(json.pagination);
 * ```
 */
export const PaginationSchema = ApiKeyPageSchema.shape.pagination;

/**
 * A website, as `POST /v1/workspaces/{workspaceId}/websites` returns it.
 *
 * @example
 * ```ts
 * const website: Website = WebsiteSchema.parse(json);
 * ```
 */
export const WebsiteSchema = forwardCompatible(StrictWebsite);

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
