/**
 * The JSON bodies the control API accepts, as zod schemas: the routes validate with them and
 * the mock's OpenAPI document (`/_mock/openapi.json`) is generated from them, so the two
 * cannot disagree. The scenario body lives in `scenario/schema.ts`.
 */
import { z } from 'zod';

const rate = z.number().min(0).max(1);

/** `PUT /_mock/faults`: the fault settings; an absent field is off (or its default). */
export const FaultsRequestSchema = z.strictObject({
  latencyMs: z.int().min(0).max(60_000).optional(),
  rateLimitEvery: z.int().min(0).max(1_000_000).optional(),
  retryAfterSeconds: z.int().min(0).max(86_400).optional(),
  serverErrorRate: rate.optional(),
  serverErrorStatus: z.int().min(500).max(599).optional(),
  dropConnectionRate: rate.optional(),
});

/** `POST /_mock/tokens`: a user token (`userId`, optional `ttlSeconds`) or an API key token (`apiKeyId`). */
export const IssueTokenRequestSchema = z.union([
  z.strictObject({
    userId: z.string().min(1),
    ttlSeconds: z.int().min(1).max(31_536_000).optional(),
  }),
  z.strictObject({ apiKeyId: z.string().min(1) }),
]);

/** `POST /_mock/tokens/expire` and `/revoke`: the token to end. */
export const EndTokenRequestSchema = z.strictObject({ token: z.string().min(1).max(512) });

/** `POST /_mock/webhook-channels`: a channel of the service's alert flow. */
export const CreateWebhookChannelRequestSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional(),
  name: z.string(),
  url: z.string(),
  secret: z.string(),
  enabled: z.boolean().optional(),
});

/** `PATCH /_mock/webhook-channels/{id}`: the fields to change. */
export const UpdateWebhookChannelRequestSchema = z.strictObject({
  name: z.string().optional(),
  url: z.string().optional(),
  secret: z.string().optional(),
  enabled: z.boolean().optional(),
});

/** `POST /_mock/alert-rules`: deliver a website's new-type alerts to some channels. */
export const CreateAlertRuleRequestSchema = z.strictObject({
  name: z.string().max(255).regex(/\S/, 'Must not be blank.'),
  websiteId: z.string().min(1),
  channelIds: z.array(z.string()).max(100),
});

/** How an inbox channel answers verified deliveries (`PUT /_mock/inbox/channels/{id}/response`). */
export const InboxResponseSchema = z.strictObject({
  status: z.int().optional(),
  location: z.string().optional(),
  hang: z.boolean().optional(),
});

/** `POST /_mock/inbox/channels`: the channel's secret (or several, during rotation) and how it answers. */
export const CreateInboxChannelRequestSchema = z.strictObject({
  secret: z.union([z.string(), z.array(z.string()).min(1).max(10)]),
  response: InboxResponseSchema.optional(),
});

/** `POST /_mock/trigger`: where to send one signed alert, and either sample overrides or the alert input. */
export const TriggerRequestSchema = z.strictObject({
  to: z.string().min(1),
  secret: z.string(),
  sample: z
    .strictObject({
      directive: z.string().optional(),
      origin: z.string().optional(),
      rule: z.string().optional(),
      websiteUrl: z.string().optional(),
    })
    .optional(),
  alert: z.record(z.string(), z.unknown()).optional(),
});
