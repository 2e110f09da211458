import * as z from 'zod/mini';
import { UNKNOWN_FIELD_MESSAGE } from './field-errors';
import { anyInteger, codePointLength, DateTimeSchema, isHttpUri, isOrigin } from './text-rules';

/*
 * The create-website endpoint (docs/api-contract.md). The request schema is what both
 * the client and the mock service accept: unknown fields are refused at every level, because
 * a client cannot know that a server accepts a field the client does not know. The response
 * schemas are open: they keep unknown fields and accept any `role`, and check only the types.
 */

/** Longest website name, in code points. */
export const MAX_WEBSITE_NAME_LENGTH = 255;
/** Longest website URL, in characters. */
export const MAX_WEBSITE_URL_LENGTH = 2048;

export { UNKNOWN_FIELD_MESSAGE };

/** A strict object whose unknown keys are refused with {@link UNKNOWN_FIELD_MESSAGE}. */
function requestObject<Shape extends z.core.$ZodShape>(shape: Shape) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? UNKNOWN_FIELD_MESSAGE
        : issue.code === 'invalid_type'
          ? 'must be an object'
          : undefined,
  });
}

/** A string field whose absence says it is required, and whose wrong type says what it must be. */
const requiredString = (what: string) =>
  z.string({
    error: (issue) =>
      issue.input === undefined ? `is required: ${what}` : `must be a string: ${what}`,
  });

const flag = () => z.optional(z.boolean('must be a boolean'));

/** Ingestion settings a create request may set; each one left out takes its default. */
export const CreateWebsiteSettingsSchema = requestObject({
  allowedOrigins: z.optional(
    z.array(
      z
        .string('must be a string')
        .check(z.refine(isOrigin, 'must be an origin, e.g. https://example.com')),
      'must be an array of origins',
    ),
  ),
  dropQueryAndFragments: flag(),
  dropReferrer: flag(),
  dropReportsFromExtensions: flag(),
});

/** The body of `POST /v1/workspaces/{workspaceId}/websites`. */
export const CreateWebsiteRequestSchema = requestObject({
  name: requiredString(`1 to ${MAX_WEBSITE_NAME_LENGTH} characters`).check(
    z.refine(
      (value) => codePointLength(value) <= MAX_WEBSITE_NAME_LENGTH && value.trim() !== '',
      `must be 1 to ${MAX_WEBSITE_NAME_LENGTH} characters, not only spaces`,
    ),
  ),
  // Refinements, not `z.maxLength`: its check class alone is 0.2 kB gzipped of the client's
  // bundle. `openapi/annotations.ts` writes the `maxLength`.
  url: requiredString('an absolute http: or https: URL').check(
    z.refine(
      (value) => value.length <= MAX_WEBSITE_URL_LENGTH,
      `must be at most ${MAX_WEBSITE_URL_LENGTH} characters`,
    ),
    z.refine(isHttpUri, 'must be an absolute http: or https: URL such as https://example.com'),
  ),
  settings: z.optional(CreateWebsiteSettingsSchema),
});

/** Ingestion settings of a website, as returned; unknown fields are kept. */
export const WebsiteSettingsSchema = z.looseObject({
  allowedOrigins: z.array(z.string()),
  dropQueryAndFragments: z.boolean(),
  dropReferrer: z.boolean(),
  dropReportsFromExtensions: z.boolean(),
});

/**
 * Website roles known today (the spec shows `viewer` as one value and does not list them all).
 * The document lists them as an open enum; `role` accepts any string.
 */
export const WEBSITE_ROLES = ['manager', 'viewer'] as const;

/**
 * A website, as the create endpoint returns it with `201`. Open: unknown fields are kept,
 * `role` is any string, `usageLimit` any integer (negative too: the spec gives no unit or
 * meaning, and `-1` for "unlimited" is common).
 */
export const WebsiteSchema = z.looseObject({
  id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  url: z.string(),
  endpointUrl: z.string(),
  endpointEnabled: z.boolean(),
  usageLimit: anyInteger(),
  settings: WebsiteSettingsSchema,
  role: z.string(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
