/**
 * The JSON bodies the control API accepts, as zod schemas: the routes validate with them and
 * the mock's OpenAPI document (`/_mock/openapi.json`) is generated from them, so the two
 * cannot disagree. The scenario body lives in `scenario/schema.ts`.
 */
import { z } from 'zod';
import { alertRuleName, resourceId, tokenTtlSeconds } from '../rules/fields';
import { InboxResponseSchema } from '../rules/inbox-response';

// `PUT /_mock/faults`: the fault settings, the same rules as the `faults` option.
export { FaultsSchema as FaultsRequestSchema } from '../rules/faults';

/** `POST /_mock/tokens`: a user token (`userId`, optional `ttlSeconds`) or an API key token (`apiKeyId`). */
export const IssueTokenRequestSchema = z.union([
  z.strictObject({
    userId: z.string().min(1),
    ttlSeconds: tokenTtlSeconds.optional(),
  }),
  z.strictObject({ apiKeyId: z.string().min(1) }),
]);

/** `POST /_mock/tokens/expire` and `/revoke`: the token to end. */
export const EndTokenRequestSchema = z.strictObject({ token: z.string().min(1).max(512) });

/** `POST /_mock/webhook-channels`: a channel of the service's alert flow. */
export const CreateWebhookChannelRequestSchema = z.strictObject({
  id: resourceId.optional(),
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
  name: alertRuleName,
  websiteId: z.string().min(1),
  channelIds: z.array(z.string()).max(100),
});

// `PUT /_mock/inbox/channels/{id}/response`: the same rules as `inbox.setResponse`.
export { InboxResponseSchema } from '../rules/inbox-response';

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
