/**
 * The scenario a test seeds the mock with, as JSON (`POST /_mock/scenario` or
 * `MockService.seed`): workspaces and plans, users and their roles, API keys, websites,
 * webhook channels and alert rules. The zod schema is the one source of the shape and of
 * the field errors the control API answers with.
 */
import { z } from 'zod';
import type { MockScenarioInput } from './types';

const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be 1 to 64 letters, digits, _ or -.');
const text = (max: number) => z.string().min(1).max(max);
const instant = z.iso.datetime({ offset: true });
const httpUrl = z
  .string()
  .max(2048)
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: 'Must be an absolute http: or https: URL.',
  });

const plan = z.strictObject({
  name: text(100),
  features: z.array(z.enum(['api_keys', 'webhooks'])).default(['api_keys', 'webhooks']),
  websiteLimit: z.int().min(0).max(100_000).default(10),
  reportsPerMonth: z.int().min(0).default(1_000_000),
});

const workspace = z.strictObject({ id, name: text(255), plan });

const user = z.strictObject({
  id,
  email: z.email(),
  firstName: text(100).default('Test'),
  lastName: text(100).default('User'),
  picture: httpUrl.optional(),
  token: z
    .string()
    .regex(/^\S{16,200}$/, 'Must be 16 to 200 characters without spaces.')
    .optional(),
  roles: z.record(id, z.enum(['admin', 'member'])),
});

const apiKey = z.strictObject({
  id: id.optional(),
  workspaceId: id,
  name: text(255),
  createdBy: id,
  allowedIps: z.array(z.string().max(64)).max(100).default([]),
  expiresAt: instant.nullable().default(null),
  lastUsedAt: instant.nullable().default(null),
  createdAt: instant.optional(),
});

const website = z.strictObject({
  id,
  workspaceId: id,
  name: text(255),
  url: httpUrl,
  endpointId: z
    .string()
    .regex(/^[a-z0-9]{8,64}$/, 'Must be 8 to 64 lowercase letters or digits.')
    .optional(),
  settings: z
    .strictObject({
      allowedOrigins: z.array(z.string()).default([]),
      dropQueryAndFragments: z.boolean().default(false),
      dropReferrer: z.boolean().default(false),
      dropReportsFromExtensions: z.boolean().default(true),
    })
    .optional(),
});

const webhookChannel = z.strictObject({
  id,
  name: z.string(),
  url: z.string(),
  secret: z.string(),
  enabled: z.boolean().default(true),
});

const alertRule = z.strictObject({
  id: id.optional(),
  name: z.string().max(255).regex(/\S/, 'Must not be blank.'),
  websiteId: id,
  channelIds: z.array(id).max(100),
});

/** The JSON body of `POST /_mock/scenario`. */
export const scenarioSchema = z.strictObject({
  workspaces: z.array(workspace).min(1).max(1000),
  users: z.array(user).max(10_000).default([]),
  apiKeys: z.array(apiKey).max(100_000).default([]),
  websites: z.array(website).max(10_000).default([]),
  webhookChannels: z.array(webhookChannel).max(1000).default([]),
  alertRules: z.array(alertRule).max(1000).default([]),
});

/** A validated scenario, defaults applied. */
export type ParsedScenario = z.output<typeof scenarioSchema>;

/** Fails to compile when a scenario of the documented type is not one the schema accepts. */
type DocumentedScenarioFits =
  MockScenarioInput extends z.input<typeof scenarioSchema> ? true : never;
const documentedScenarioFits: DocumentedScenarioFits = true;
void documentedScenarioFits;
