import * as z from 'zod/mini';
import {
  AlertSchema,
  AlertWebsiteSchema,
  AlertWindowSchema,
  NewTypeFindingSchema,
} from '../schemas/alert';
import {
  ApiKeyCreatorSchema,
  ApiKeyPageSchema,
  ApiKeySchema,
  PaginationSchema,
} from '../schemas/api-key';
import {
  DEFAULT_LIST_LIMIT,
  ListApiKeysQuerySchema,
  MAX_LIST_LIMIT,
  MAX_QUERY_LENGTH,
} from '../schemas/list-query';
import {
  PROBLEM_CODES,
  ProblemCodeSchema,
  ProblemFieldErrorSchema,
  ProblemSchema,
} from '../schemas/problem';
import { DateTimeSchema, HTTP_URI_PATTERN } from '../schemas/text-rules';
import {
  CreateWebsiteRequestSchema,
  CreateWebsiteSettingsSchema,
  MAX_WEBSITE_NAME_LENGTH,
  MAX_WEBSITE_URL_LENGTH,
  WEBSITE_ROLES,
  WebsiteSchema,
  WebsiteSettingsSchema,
} from '../schemas/website';

/*
 * What the JSON Schema says beyond the zod structure: names of the components, descriptions,
 * examples, defaults, formats, and the JSON Schema twin of each rule zod checks with a
 * refinement (lengths in code points, URI and origin shapes). Kept apart from the schemas so
 * the code the client bundles carries none of it; only the generator reads it.
 */

/** JSON Schema keywords (and an `id` for named components) attached to one zod schema. */
export type Annotation = { id?: string } & Record<string, unknown>;

type Schema = z.core.$ZodType;
const unwrap = (schema: Schema): Schema =>
  (schema._zod.def as { innerType?: Schema }).innerType ?? schema;

/**
 * The JSON Schema of a response string with known values that may gain more: `anyOf` the
 * known values and any string, the form openapi-generator simplifies to a string
 * (`SIMPLIFY_ANYOF_STRING_AND_ENUM_STRING`) and openapi-typescript and Prism read as a string.
 */
export function openEnum(values: readonly string[]): Annotation {
  return { anyOf: [{ type: 'string', enum: [...values] }, { type: 'string' }] };
}

/** The named components, in the order the document lists them. */
export const COMPONENTS: ReadonlyArray<[string, Schema]> = [
  ['ApiKey', ApiKeySchema],
  ['ApiKeyCreator', ApiKeyCreatorSchema],
  ['ApiKeyPage', ApiKeyPageSchema],
  ['Pagination', PaginationSchema],
  ['CreateWebsiteRequest', CreateWebsiteRequestSchema],
  ['CreateWebsiteSettings', CreateWebsiteSettingsSchema],
  ['Website', WebsiteSchema],
  ['WebsiteSettings', WebsiteSettingsSchema],
  ['Problem', ProblemSchema],
  ['ProblemCode', ProblemCodeSchema],
  ['ProblemFieldError', ProblemFieldErrorSchema],
  ['Alert', AlertSchema],
  ['AlertFinding', NewTypeFindingSchema],
  ['AlertWebsite', AlertWebsiteSchema],
  ['AlertWindow', AlertWindowSchema],
];

function fields(): Array<[Schema, Annotation]> {
  const key = ApiKeySchema.shape;
  const user = ApiKeyCreatorSchema.shape;
  const page = PaginationSchema.shape;
  const create = CreateWebsiteRequestSchema.shape;
  const settings = CreateWebsiteSettingsSchema.shape;
  const site = WebsiteSchema.shape;
  const problem = ProblemSchema.shape;
  const fieldError = ProblemFieldErrorSchema.shape;
  const query = ListApiKeysQuerySchema.shape;
  const alert = AlertSchema.shape;
  const finding = NewTypeFindingSchema.shape;
  return [
    [DateTimeSchema, { format: 'date-time' }],
    [user.id, { description: 'User id.' }],
    [user.email, { description: 'E-mail address.' }],
    [user.firstName, { description: 'Given name.' }],
    [user.lastName, { description: 'Family name.' }],
    [user.picture, { description: 'Avatar URL.' }],
    [key.id, { description: 'Key identifier.' }],
    [key.workspaceId, { description: 'Owning workspace.' }],
    [key.name, { description: 'Display name of the key.' }],
    [
      key.prefix,
      { description: 'Short leading part of the key, e.g. `cwk_3f9a`; never the secret.' },
    ],
    [key.createdBy, { description: 'Id of the user who created the key.' }],
    [
      key.allowedIps,
      { description: 'Allowed client addresses (IPs or CIDR ranges); empty means any.' },
    ],
    [key.expiresAt, { description: 'Expiry, or null for a key that never expires.' }],
    [key.lastUsedAt, { description: 'Last use, or null for a key never used.' }],
    [
      page.nextCursor,
      {
        description:
          'Opaque cursor of the next page (pass it back unchanged as `cursor`), or null on the last page.',
      },
    ],
    [page.hasMore, { description: 'Whether another page follows.' }],
    [
      page.total,
      {
        format: 'int64',
        description:
          'Number of keys matching `q`, across all pages. `@cspwatch/client` refuses a total above 2^53 - 1, which a JavaScript number cannot hold exactly.',
      },
    ],
    [
      unwrap(query.cursor),
      {
        description:
          'The `nextCursor` of the previous page, unchanged; omit it for the first page. Opaque: never build one by hand.',
      },
    ],
    [
      unwrap(query.limit),
      { description: 'Page size.', default: DEFAULT_LIST_LIMIT, maximum: MAX_LIST_LIMIT },
    ],
    [
      unwrap(query.q),
      {
        description: 'Matches part of the key name, case-insensitively.',
        maxLength: MAX_QUERY_LENGTH,
      },
    ],
    [
      create.name,
      {
        description: `Display name: 1 to ${MAX_WEBSITE_NAME_LENGTH} characters, not only white space.`,
        minLength: 1,
        maxLength: MAX_WEBSITE_NAME_LENGTH,
        pattern: '\\S',
      },
    ],
    [
      create.url,
      {
        maxLength: MAX_WEBSITE_URL_LENGTH,
        description: 'Address of the site: an absolute http: or https: URL.',
        format: 'uri',
        pattern: HTTP_URI_PATTERN,
      },
    ],
    [
      unwrap(settings.allowedOrigins),
      { description: 'Origins whose reports are accepted; empty means any.', default: [] },
    ],
    [
      (unwrap(settings.allowedOrigins) as z.ZodMiniArray)._zod.def.element,
      {
        format: 'uri',
        pattern: '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#\\s]+$',
        description: 'An origin: scheme, host and port only, e.g. https://example.com.',
      },
    ],
    [
      unwrap(settings.dropQueryAndFragments),
      { description: 'Strip query strings and fragments from reported URLs.', default: false },
    ],
    [
      unwrap(settings.dropReferrer),
      { description: 'Drop the referrer from reports.', default: false },
    ],
    [
      unwrap(settings.dropReportsFromExtensions),
      { description: 'Ignore reports caused by browser extensions.', default: true },
    ],
    [site.id, { description: 'Website id.' }],
    [site.workspaceId, { description: 'Owning workspace.' }],
    [site.name, { description: 'Display name.' }],
    [site.url, { description: 'Address of the site.', format: 'uri' }],
    [
      site.endpointUrl,
      {
        description: 'The provisioned report-collection URL (point `Reporting-Endpoints` at it).',
      },
    ],
    [site.endpointEnabled, { description: 'Whether the endpoint accepts reports.' }],
    [
      site.usageLimit,
      {
        format: 'int64',
        description:
          'The usage limit of the website. Its unit and meaning are not stated; any integer may appear, negative ones too (`-1` often means no limit).',
      },
    ],
    [
      site.role,
      {
        description:
          "The caller's role on the website; the creator gets `manager`. Open: other values may appear, so keep a default branch.",
        ...openEnum(WEBSITE_ROLES),
      },
    ],
    [
      WebsiteSettingsSchema.shape.allowedOrigins,
      { description: 'Origins whose reports are accepted; empty means any.' },
    ],
    [
      ProblemCodeSchema,
      {
        description:
          'Stable snake_case identifier of the problem; switch on it. Open: the service may add codes, so keep a default branch.',
        ...openEnum(PROBLEM_CODES),
      },
    ],
    [
      problem.type,
      {
        description: '`urn:cspwatch:problem:<code>`, a URI naming the problem type.',
        examples: ['urn:cspwatch:problem:validation_failed'],
      },
    ],
    [problem.title, { description: 'Short summary of the problem type.' }],
    [problem.status, { description: 'The HTTP status code of the response.' }],
    [problem.detail, { description: 'What happened this time, and what to do.' }],
    [
      problem.errors,
      { description: 'For `validation_failed` and `invalid_cursor`: every invalid field.' },
    ],
    [
      fieldError.path,
      {
        description:
          'The field, as a dot path: `limit`, `name`, `settings.allowedOrigins.0`; `(body)` when the body as a whole is wrong.',
        examples: ['name', 'settings.allowedOrigins.0', '(body)'],
      },
    ],
    [fieldError.message, { description: 'What is wrong and what is expected.' }],
    [
      alert.id,
      { description: 'Delivery/alert identifier (UUID-shaped); use it to drop duplicates.' },
    ],
    [alert.rule, { description: 'Name of the rule that fired.' }],
    [alert.findings, { description: "What was found; each element's `kind` equals `eventType`." }],
    [alert.findingsCount, { description: 'Number of findings (equals `findings.length`).' }],
    [alert.dashboardUrl, { description: 'Link into the dashboard.', format: 'uri' }],
    [AlertWebsiteSchema.shape.url, { format: 'uri' }],
    [AlertWindowSchema.shape.start, { format: 'date-time' }],
    [AlertWindowSchema.shape.end, { format: 'date-time' }],
    [finding.key, { description: 'Effective directive and blocked origin joined by a newline.' }],
    [
      finding.effectiveDirective,
      { description: 'The violated directive, e.g. `script-src-elem`.' },
    ],
    [
      finding.blockedUrlOrigin,
      { description: 'Origin of the blocked resource, or a CSP keyword such as `inline`.' },
    ],
    [finding.count, { description: 'Reports of this kind in the window.' }],
  ];
}

/**
 * A registry of the annotations of every field and, with `named`, an `id` for every component
 * (so the generator writes `$ref`s to them instead of inlining them).
 */
export function annotatedRegistry(named: boolean): z.core.$ZodRegistry<Annotation> {
  const registry = z.registry<Annotation>();
  for (const [schema, annotation] of fields()) registry.add(schema, annotation);
  if (named)
    for (const [id, schema] of COMPONENTS) registry.add(schema, { ...registry.get(schema), id });
  return registry;
}
