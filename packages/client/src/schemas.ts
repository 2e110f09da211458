import { codePointLength } from '@cspwatch/contract';
import * as z from 'zod/mini';

/*
 * Response schemas are forward compatible: objects are loose (unknown fields are kept),
 * enum-like fields such as `role` are plain strings, and fields the spec leaves open
 * (`expiresAt`, `lastUsedAt`, `nextCursor`) accept null or absence.
 */

/**
 * An integer (a safe one). Not `z.int()`: its number-format machinery weighs 0.35 kB gzipped,
 * a fifth of the client's size budget, for the same verdicts on JSON numbers.
 */
const integer = () => z.number().check(z.refine(Number.isSafeInteger, 'must be an integer'));

/**
 * The user who created an API key.
 *
 * @example
 * ```ts
 * const user = ApiKeyCreatorSchema.parse(json);
 * ```
 */
export const ApiKeyCreatorSchema = z.looseObject({
  /** User id. */
  id: z.string(),
  /** Email address. */
  email: z.string(),
  /** First name. */
  firstName: z.string(),
  /** Last name. */
  lastName: z.string(),
  /** Avatar URL. */
  picture: z.string(),
});

/**
 * An API key's metadata as the list endpoint returns it (never the secret).
 *
 * @example
 * ```ts
 * const key: ApiKey = ApiKeySchema.parse(json);
 * ```
 */
export const ApiKeySchema = z.looseObject({
  /** Key identifier. */
  id: z.string(),
  /** Owning workspace. */
  workspaceId: z.string(),
  /** Display name of the key. */
  name: z.string(),
  /** Short leading part of the key (never the secret). */
  prefix: z.string(),
  /** Id of the user who created the key. */
  createdBy: z.string(),
  /** The user who created the key. */
  createdByUser: ApiKeyCreatorSchema,
  /** Addresses allowed to use the key. */
  allowedIps: z.array(z.string()),
  /** Expiry (ISO 8601), or null/absent when the key does not expire. */
  expiresAt: z.nullish(z.string()),
  /** Last use (ISO 8601), or null/absent when never used. */
  lastUsedAt: z.nullish(z.string()),
  /** Creation time (ISO 8601). */
  createdAt: z.string(),
  /** Last update (ISO 8601). */
  updatedAt: z.string(),
});

/**
 * The `pagination` object of a list page. `total` counts every item matching the query.
 *
 * @example
 * ```ts
 * const { hasMore, nextCursor } = PaginationSchema.parse(json.pagination);
 * ```
 */
export const PaginationSchema = z.looseObject({
  /** Opaque cursor of the next page; pass it back unchanged. */
  nextCursor: z.nullish(z.string()),
  /** Whether another page follows. */
  hasMore: z.boolean(),
  /** Number of items matching the query, across all pages. */
  total: integer().check(z.nonnegative()),
});

/**
 * One page of `GET /v1/workspaces/{workspaceId}/api-keys`.
 *
 * @example
 * ```ts
 * const page: ApiKeyPage = ApiKeyPageSchema.parse(json);
 * ```
 */
export const ApiKeyPageSchema = z.looseObject({
  /** The keys of this page. */
  data: z.array(ApiKeySchema),
  /** Where the list goes on. */
  pagination: PaginationSchema,
});

/**
 * Ingestion settings of a website, as returned.
 *
 * @example
 * ```ts
 * const settings = WebsiteSettingsSchema.parse(website.settings);
 * ```
 */
export const WebsiteSettingsSchema = z.looseObject({
  /** Origins reports are accepted from. */
  allowedOrigins: z.array(z.string()),
  /** Whether query strings and fragments are removed from reported URLs. */
  dropQueryAndFragments: z.boolean(),
  /** Whether the referrer is removed from reports. */
  dropReferrer: z.boolean(),
  /** Whether reports caused by browser extensions are dropped. */
  dropReportsFromExtensions: z.boolean(),
});

/**
 * A website, as `POST /v1/workspaces/{workspaceId}/websites` returns it.
 *
 * @example
 * ```ts
 * const website: Website = WebsiteSchema.parse(json);
 * ```
 */
export const WebsiteSchema = z.looseObject({
  /** Website id. */
  id: z.string(),
  /** Owning workspace. */
  workspaceId: z.string(),
  /** Display name. */
  name: z.string(),
  /** Address of the site. */
  url: z.string(),
  /** URL browsers send reports to (point `Reporting-Endpoints` at it). */
  endpointUrl: z.string(),
  /** Whether the report endpoint accepts reports. */
  endpointEnabled: z.boolean(),
  /** Usage limit of the website. */
  usageLimit: integer(),
  /** Ingestion settings. */
  settings: WebsiteSettingsSchema,
  /** The caller's role on the website; `viewer` is one value, others may appear. */
  role: z.string(),
  /** Creation time (ISO 8601). */
  createdAt: z.string(),
  /** Last update (ISO 8601). */
  updatedAt: z.string(),
});

/** An `http:` or `https:` URI with only the characters RFC 3986 allows. */
const HTTP_URI = /^https?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/i;

/**
 * The body of a create-website request; checked before anything is sent. Top-level fields
 * other than `name`, `url` and `settings` are refused (a typo would otherwise be dropped
 * silently); `settings` fields beyond the four known ones are passed through.
 *
 * @example
 * ```ts
 * const input: CreateWebsiteInput = { name: 'Shop', url: 'https://shop.example.com' };
 * ```
 */
export const CreateWebsiteInputSchema = z.strictObject({
  /** Display name, 1 to 255 characters, not only spaces. */
  name: z.string('must be a string').check(
    z.refine((value) => value.trim() !== '', 'must not be empty or only spaces'),
    z.refine((value) => codePointLength(value) <= 255, 'must be at most 255 characters'),
  ),
  /** Absolute `http:` or `https:` URL of the site, at most 2048 characters. */
  url: z.string('must be a string').check(
    z.maxLength(2048, 'must be at most 2048 characters'),
    z.refine(
      (value) => HTTP_URI.test(value) && URL.canParse(value),
      'must be an absolute http: or https: URL (ASCII, percent-encoded), e.g. https://example.com',
    ),
  ),
  /** Initial ingestion settings; server defaults apply when omitted. */
  settings: z.optional(
    z.looseObject(
      {
        /** Origins reports are accepted from. */
        allowedOrigins: z.optional(z.array(z.string('must be a string'), 'must be an array')),
        /** Remove query strings and fragments from reported URLs. */
        dropQueryAndFragments: z.optional(z.boolean('must be a boolean')),
        /** Remove the referrer from reports. */
        dropReferrer: z.optional(z.boolean('must be a boolean')),
        /** Drop reports caused by browser extensions. */
        dropReportsFromExtensions: z.optional(z.boolean('must be a boolean')),
      },
      'must be an object',
    ),
  ),
});

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
