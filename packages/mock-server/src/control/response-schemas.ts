/**
 * The JSON bodies the control API, the trigger and the inbox answer with, as zod schemas for
 * the mock's OpenAPI document. Plain `z.object`s, generated in input mode, give open objects
 * (no `additionalProperties: false`), like the service's responses: a client must accept fields
 * added later. Compile-time checks below hold the handlers' types to them, and the behaviour
 * suite checks every answer against the generated document.
 */
import { AlertSchema } from '@cspwatch/contract';
import type { DeliveryResult } from '@cspwatch/webhook-sender';
import { z } from 'zod';
import type { MockAlertRecord, MockAlertRule } from '../alerts/alert-flow';
import type { TriggerResult } from '../alerts/trigger';
import type { MockWebhookChannel } from '../alerts/webhook-channels';
import type { InboxDelivery } from '../inbox/types';
import { faultFields, type ResolvedFaults } from '../rules/faults';
import { InboxResponseSchema } from './request-schemas';

const nullableString = z.string().nullable();

/** The fault settings in force, every default applied (`GET`/`PUT /_mock/faults`). */
export const FaultSettingsSchema = z.object(faultFields).required();

/** A webhook channel of the service's alert flow, its secret masked. */
export const WebhookChannelSchema = z.object({
  id: z.string(),
  type: z.literal('Webhook'),
  name: z.string(),
  url: z.string(),
  secretPreview: z.string(),
  enabled: z.boolean(),
  consecutiveFailures: z.int().min(0),
});

/** An alert rule: the website whose reports it watches and the channels it delivers to. */
export const AlertRuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  websiteId: z.string(),
  channelIds: z.array(z.string()),
});

/** What the seeded state holds: every credential and endpoint, by id. */
export const SeedSummarySchema = z.object({
  workspaces: z.array(z.object({ id: z.string(), name: z.string() })),
  users: z.array(
    z.object({
      id: z.string(),
      email: z.string(),
      token: z.string(),
      roles: z.record(z.string(), z.string()),
    }),
  ),
  apiKeys: z.array(
    z.object({
      id: z.string(),
      workspaceId: z.string(),
      name: z.string(),
      token: nullableString,
    }),
  ),
  websites: z.array(
    z.object({
      id: z.string(),
      workspaceId: z.string(),
      name: z.string(),
      endpointUrl: z.string(),
    }),
  ),
  webhookChannels: z.array(WebhookChannelSchema),
  alertRules: z.array(AlertRuleSchema),
});

/** A token issued by `POST /_mock/tokens`. */
export const IssuedTokenSchema = z.object({
  token: z.string(),
  kind: z.enum(['user', 'api_key']),
  expiresAt: nullableString,
  userId: z.string().optional(),
  apiKeyId: z.string().optional(),
});

/** What one delivery gave: the sender's `DeliveryResult`. */
export const DeliveryResultSchema = z.object({
  ok: z.boolean(),
  channelId: z.string(),
  alertId: nullableString,
  status: z.int().nullable(),
  durationMs: z.int().min(0),
  cause: z
    .enum(['http_status', 'redirect', 'timeout', 'network', 'target_rejected', 'channel_disabled'])
    .nullable(),
  location: nullableString,
  error: nullableString,
  rejection: z
    .object({
      allowed: z.literal(false),
      reason: z.string(),
      message: z.string(),
      stage: z.enum(['url', 'resolve', 'connect']),
      address: z.string().optional(),
      range: z.string().optional(),
    })
    .nullable(),
  responseExcerpt: nullableString,
  consecutiveFailures: z.int().min(0),
  disabledNow: z.boolean(),
  disabled: z.boolean(),
  test: z.boolean(),
});

/** One alert the mock raised, with one delivery result per channel of its rule. */
export const AlertRecordSchema = z.object({
  alert: AlertSchema,
  deliveries: z.array(DeliveryResultSchema),
});

/** What `POST /_mock/trigger` sent and what came back. */
export const TriggerResultSchema = z.object({ alert: AlertSchema, result: DeliveryResultSchema });

/** An inbox channel: the URL to point a sender at. */
export const InboxChannelSchema = z.object({ id: z.string(), url: z.string() });

/** An inbox channel in the list, with how it answers and how many deliveries it holds. */
export const InboxChannelSummarySchema = z.object({
  id: z.string(),
  url: z.string(),
  response: InboxResponseSchema,
  deliveryCount: z.int().min(0),
});

/** One delivery the inbox received, its verification verdict and the status it answered. */
export const InboxDeliverySchema = z.object({
  receivedAt: z.string(),
  headers: z.record(z.string(), z.string()),
  rawBody: z.string(),
  verified: z.boolean(),
  errorCode: z.string().optional(),
  /** An `Alert` for `csp-violation:new-type`; another event type keeps at least these fields. */
  event: z.union([AlertSchema, z.object({ id: z.string(), eventType: z.string() })]).optional(),
  status: z.int().nullable(),
});

/** What an inbox channel answers a verified delivery with, unless its status has no body (204). */
export const InboxAnswerSchema = z.object({ received: z.literal(true) });

/** What `DELETE /_mock/inbox/deliveries` answers: how many records it forgot. */
export const ClearedDeliveriesSchema = z.object({
  /** Inbox deliveries forgotten, over every channel. */
  deliveries: z.int().min(0),
  /** Triggers to external receivers forgotten. */
  triggers: z.int().min(0),
});

/** The inbox page's change counter. */
export const RevisionSchema = z.object({ revision: z.int().min(0) });

/** A list answer: `{ data: [...] }`. */
export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });

/** Fails to compile when a handler's answer is not one its documented schema accepts. */
type Fits<Answer, Schema extends z.ZodType> = Answer extends z.input<Schema> ? true : never;
const answersFit: [
  Fits<ResolvedFaults, typeof FaultSettingsSchema>,
  Fits<MockWebhookChannel, typeof WebhookChannelSchema>,
  Fits<MockAlertRule, typeof AlertRuleSchema>,
  Fits<DeliveryResult, typeof DeliveryResultSchema>,
  Fits<MockAlertRecord, typeof AlertRecordSchema>,
  Fits<TriggerResult, typeof TriggerResultSchema>,
  Fits<InboxDelivery, typeof InboxDeliverySchema>,
] = [true, true, true, true, true, true, true];
void answersFit;
