/**
 * The scenario a test seeds the mock with, as JSON (`POST /_mock/scenario`,
 * `MockService.seed` or `--scenario`): workspaces and plans, users and their roles, API keys,
 * websites, webhook channels and alert rules. The zod schema is the one source of the shape,
 * of its defaults, of the documented types (`MockScenario…`, derived below) and of the field
 * errors the control API answers with. The TSDoc on each field is what users read.
 */
import { HTTP_URI_PATTERN, isHttpUri, MAX_WEBSITE_URL_LENGTH } from '@cspwatch/contract';
import { z } from 'zod';
import { SERVICE_DEFAULTS } from '../options';
import { alertRuleName, resourceId as id, websiteLimit } from '../rules/fields';

const text = (max: number) => z.string().min(1).max(max);
const instant = z.iso.datetime({ offset: true });
const URL_MESSAGE = 'Must be an absolute http: or https: URL such as https://example.com.';
/** A website's address, by the create endpoint's rule (the contract's), documented with its pattern. */
const websiteUrl = z
  .string()
  .max(MAX_WEBSITE_URL_LENGTH)
  // The pattern is for the document; the rule is `isHttpUri` (the pattern and the WHATWG parser).
  .regex(new RegExp(HTTP_URI_PATTERN), { message: URL_MESSAGE, abort: true })
  .refine(isHttpUri, URL_MESSAGE);
/** An avatar's address. */
const pictureUrl = z
  .string()
  .max(2048)
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: URL_MESSAGE,
  });

const plan = z.strictObject({
  /** Plan name, e.g. `Team`. */
  name: text(100),
  /** Plan features. @default ['api_keys', 'webhooks'] */
  features: z.array(z.enum(['api_keys', 'webhooks'])).default(['api_keys', 'webhooks']),
  /** Websites the workspace may have. @default 10 */
  websiteLimit: websiteLimit.default(SERVICE_DEFAULTS.websiteLimit),
  /** The `usageLimit` of its websites. @default 1000000 */
  reportsPerMonth: z.int().min(0).default(1_000_000),
});

const workspace = z.strictObject({
  /** Workspace id (1 to 64 letters, digits, `_` or `-`). */
  id,
  /** Display name. */
  name: text(255),
  /** The plan: name, features, limits. */
  plan,
});

const user = z.strictObject({
  /** User id. */
  id,
  /** E-mail address. */
  email: z.email(),
  /** Given name. @default 'Test' */
  firstName: text(100).default('Test'),
  /** Family name. @default 'User' */
  lastName: text(100).default('User'),
  /** Avatar URL. @default generated */
  picture: pictureUrl.optional(),
  /** Bearer token (16 to 200 characters without spaces). @default generated from the seed */
  token: z
    .string()
    .regex(/^\S{16,200}$/, 'Must be 16 to 200 characters without spaces.')
    .optional(),
  /** Role per workspace id. */
  roles: z.record(id, z.enum(['admin', 'member'])),
});

const apiKey = z.strictObject({
  /** Key id. @default generated */
  id: id.optional(),
  /** Owning workspace. */
  workspaceId: id,
  /** Display name. */
  name: text(255),
  /** Id of the creating user. */
  createdBy: id,
  /** Allowed client addresses. @default [] */
  allowedIps: z.array(z.string().max(64)).max(100).default([]),
  /** Expiry (ISO 8601 with offset) or `null`. @default null */
  expiresAt: instant.nullable().default(null),
  /** Last use (ISO 8601 with offset) or `null`. @default null */
  lastUsedAt: instant.nullable().default(null),
  /** Creation time (ISO 8601 with offset). @default now */
  createdAt: instant.optional(),
});

const website = z.strictObject({
  /** Website id. */
  id,
  /** Owning workspace. */
  workspaceId: id,
  /** Display name. */
  name: text(255),
  /** Address of the site: an absolute `http:` or `https:` URI, as the create endpoint takes it. */
  url: websiteUrl,
  /** Report endpoint id (8 to 64 lowercase letters or digits). @default generated */
  endpointId: z
    .string()
    .regex(/^[a-z0-9]{8,64}$/, 'Must be 8 to 64 lowercase letters or digits.')
    .optional(),
  /** Ingestion settings. @default the create endpoint's defaults */
  settings: z
    .strictObject({
      /** Origins whose reports are accepted. @default [] */
      allowedOrigins: z.array(z.string()).default([]),
      /** Strip query strings and fragments. @default false */
      dropQueryAndFragments: z.boolean().default(false),
      /** Drop the referrer. @default false */
      dropReferrer: z.boolean().default(false),
      /** Ignore reports caused by extensions. @default true */
      dropReportsFromExtensions: z.boolean().default(true),
    })
    .optional(),
});

const webhookChannel = z.strictObject({
  /** Channel id. */
  id,
  /** Display name. */
  name: z.string(),
  /** Delivery URL: https on a public host, or loopback when the mock allows it. */
  url: z.string(),
  /** Signing secret, at least 8 characters; never returned. */
  secret: z.string(),
  /** Start enabled. @default true */
  enabled: z.boolean().default(true),
});

const alertRule = z.strictObject({
  /** Rule id. @default `rule_<n>` */
  id: id.optional(),
  /** Rule name, sent as the alert's `rule`. */
  name: alertRuleName,
  /** The website watched. */
  websiteId: id,
  /** The webhook channels delivered to. */
  channelIds: z.array(id).max(100),
});

/** The JSON body of `POST /_mock/scenario`. */
export const scenarioSchema = z.strictObject({
  /** At least one workspace. */
  workspaces: z.array(workspace).min(1).max(1000),
  /** Users and their roles. @default [] */
  users: z.array(user).max(10_000).default([]),
  /** API keys. @default [] */
  apiKeys: z.array(apiKey).max(100_000).default([]),
  /** Websites. @default [] */
  websites: z.array(website).max(10_000).default([]),
  /** The service's webhook channels. @default [] */
  webhookChannels: z.array(webhookChannel).max(1000).default([]),
  /** Alert rules. @default [] */
  alertRules: z.array(alertRule).max(1000).default([]),
});

/** A validated scenario, defaults applied. */
export type ParsedScenario = z.output<typeof scenarioSchema>;

// The documented types are the schema's input types (`@interface`: typedoc lists their fields).

/**
 * A workspace and its plan.
 * @interface
 */
export type MockScenarioWorkspace = z.input<typeof workspace>;

/**
 * A user and their role per workspace.
 * @interface
 */
export type MockScenarioUser = z.input<typeof user>;

/**
 * An API key; its `cwk_` token is generated (see `GET /_mock/state`).
 * @interface
 */
export type MockScenarioApiKey = z.input<typeof apiKey>;

/**
 * A website; its `endpointUrl` is `{baseUrl}/reports/{endpointId}`.
 * @interface
 */
export type MockScenarioWebsite = z.input<typeof website>;

/**
 * A webhook channel of the service (validated by `@cspwatch/webhook-sender`).
 * @interface
 */
export type MockScenarioWebhookChannel = z.input<typeof webhookChannel>;

/**
 * An alert rule: which channels get a website's new-violation-type alerts.
 * @interface
 */
export type MockScenarioAlertRule = z.input<typeof alertRule>;

/**
 * A scenario to seed the mock with (`POST /_mock/scenario`, `MockService.seed`, `--scenario`).
 * @interface
 */
export type MockScenarioInput = z.input<typeof scenarioSchema>;
