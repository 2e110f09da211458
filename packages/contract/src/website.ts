import * as z from 'zod/mini';
import { codePointLength, dateTime, httpUri, isOrigin } from './text-rules';

/*
 * The create-website endpoint (spec sections 2.2 and 4.2). The request schema is what both
 * the client and the mock service accept: unknown fields are refused at every level, because
 * a client cannot know that a server accepts a field the client does not know.
 */

/** Longest website name, in code points. */
export const MAX_WEBSITE_NAME_LENGTH = 255;
/** Longest website URL, in characters. */
export const MAX_WEBSITE_URL_LENGTH = 2048;

/** The message of a field the API does not define, at any level of a request body. */
export const UNKNOWN_FIELD_MESSAGE = 'is not a known field: remove it or check its spelling';

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

const origin = z
  .string('must be a string')
  .check(
    z.refine(
      isOrigin,
      'must be an origin such as https://example.com (no path, no trailing slash)',
    ),
    z.meta({ format: 'uri', pattern: '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#\\s]+$' }),
  );

/** A string field whose absence says it is required, and whose wrong type says what it must be. */
const requiredString = (what: string) =>
  z.string({
    error: (issue) =>
      issue.input === undefined ? `is required: ${what}` : `must be a string: ${what}`,
  });

const NAME_RULE = `must be 1 to ${MAX_WEBSITE_NAME_LENGTH} characters, not only spaces`;

/** Ingestion settings a create request may set; each one left out takes its default. */
export const CreateWebsiteSettingsSchema = requestObject({
  allowedOrigins: z.optional(
    z.array(origin, 'must be an array of origins').check(
      z.meta({
        description: 'Origins whose reports are accepted; empty means any.',
        default: [],
      }),
    ),
  ),
  dropQueryAndFragments: z.optional(
    z.boolean('must be a boolean').check(
      z.meta({
        description: 'Strip query strings and fragments from reported URLs.',
        default: false,
      }),
    ),
  ),
  dropReferrer: z.optional(
    z
      .boolean('must be a boolean')
      .check(z.meta({ description: 'Drop the referrer from reports.', default: false })),
  ),
  dropReportsFromExtensions: z.optional(
    z
      .boolean('must be a boolean')
      .check(
        z.meta({ description: 'Ignore reports caused by browser extensions.', default: true }),
      ),
  ),
});

/** The body of `POST /v1/workspaces/{workspaceId}/websites`. */
export const CreateWebsiteRequestSchema = requestObject({
  name: requiredString(`1 to ${MAX_WEBSITE_NAME_LENGTH} characters`).check(
    z.refine((value) => {
      const length = codePointLength(value);
      return length >= 1 && length <= MAX_WEBSITE_NAME_LENGTH && value.trim() !== '';
    }, NAME_RULE),
    z.meta({
      description: `Display name: 1 to ${MAX_WEBSITE_NAME_LENGTH} characters, not only white space.`,
      minLength: 1,
      maxLength: MAX_WEBSITE_NAME_LENGTH,
      pattern: '\\S',
    }),
  ),
  url: httpUri(MAX_WEBSITE_URL_LENGTH, requiredString('an absolute http: or https: URL')).check(
    z.meta({ description: 'Address of the site: an absolute http: or https: URL.' }),
  ),
  settings: z.optional(CreateWebsiteSettingsSchema),
});

/** Ingestion settings of a website, as returned. */
export const WebsiteSettingsSchema = z.strictObject({
  allowedOrigins: z
    .array(z.string())
    .check(z.meta({ description: 'Origins whose reports are accepted; empty means any.' })),
  dropQueryAndFragments: z.boolean(),
  dropReferrer: z.boolean(),
  dropReportsFromExtensions: z.boolean(),
});

/** Website roles known today; the client accepts others (the spec lists `viewer` as one value). */
export const WEBSITE_ROLES = ['manager', 'viewer'] as const;

/** A website, as the create endpoint returns it with `201`. */
export const WebsiteSchema = z.strictObject({
  id: z.string().check(z.meta({ description: 'Website id.' })),
  workspaceId: z.string().check(z.meta({ description: 'Owning workspace.' })),
  name: z.string().check(z.meta({ description: 'Display name.' })),
  url: z.string().check(z.meta({ description: 'Address of the site.', format: 'uri' })),
  endpointUrl: z.string().check(
    z.meta({
      description: 'The provisioned report-collection URL (point `Reporting-Endpoints` at it).',
      format: 'uri',
    }),
  ),
  endpointEnabled: z
    .boolean()
    .check(z.meta({ description: 'Whether the endpoint accepts reports.' })),
  usageLimit: z
    .int()
    .check(z.minimum(0), z.meta({ description: 'Reports per month the website may ingest.' })),
  settings: WebsiteSettingsSchema,
  role: z.enum(WEBSITE_ROLES).check(
    z.meta({
      description:
        "The caller's role on the website; the creator gets `manager`. More values may appear.",
    }),
  ),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
