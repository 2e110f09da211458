/**
 * The component schemas of the mock's OpenAPI document: every body the control API, the
 * trigger, the inbox and the report intake read or answer, generated from the zod schemas the
 * routes use, plus the problem and alert components taken from the service's document.
 */
import { AlertSchema } from '@cspwatch/contract';
import { componentSchemas, type JsonSchema } from '@cspwatch/contract/generator';
import { z } from 'zod';
import { LegacyCspReportBodySchema, ReportingApiBodySchema } from '../alerts/report-schemas';
import * as requests from '../control/request-schemas';
import * as answers from '../control/response-schemas';
import { scenarioSchema } from '../scenario/schema';

/** Every named body schema, by component name, with the description the document gives it. */
const NAMED: ReadonlyArray<[string, z.core.$ZodType, string]> = [
  [
    'Scenario',
    scenarioSchema,
    'A whole seeded state: workspaces, users, keys, websites, channels, rules.',
  ],
  ['FaultsRequest', requests.FaultsRequestSchema, 'Fault settings; an absent field is off.'],
  ['FaultSettings', answers.FaultSettingsSchema, 'The fault settings in force.'],
  [
    'IssueTokenRequest',
    requests.IssueTokenRequestSchema,
    'A user token (`userId`) or an API key token (`apiKeyId`).',
  ],
  ['IssuedToken', answers.IssuedTokenSchema, 'A bearer token issued by the mock.'],
  ['EndTokenRequest', requests.EndTokenRequestSchema, 'The token to expire or revoke.'],
  ['SeedSummary', answers.SeedSummarySchema, 'Every credential and endpoint of the seeded state.'],
  [
    'CreateWebhookChannelRequest',
    requests.CreateWebhookChannelRequestSchema,
    'A webhook channel of the alert flow.',
  ],
  [
    'UpdateWebhookChannelRequest',
    requests.UpdateWebhookChannelRequestSchema,
    'The channel fields to change.',
  ],
  ['WebhookChannel', answers.WebhookChannelSchema, 'A webhook channel, its secret masked.'],
  ['WebhookChannelList', answers.listOf(answers.WebhookChannelSchema), 'Every webhook channel.'],
  ['CreateAlertRuleRequest', requests.CreateAlertRuleRequestSchema, 'An alert rule to add.'],
  ['AlertRule', answers.AlertRuleSchema, 'An alert rule.'],
  ['AlertRuleList', answers.listOf(answers.AlertRuleSchema), 'Every alert rule.'],
  [
    'DeliveryResult',
    answers.DeliveryResultSchema,
    "What one delivery gave (the sender's DeliveryResult).",
  ],
  ['AlertRecord', answers.AlertRecordSchema, 'An alert the mock raised, with its deliveries.'],
  ['AlertRecordList', answers.listOf(answers.AlertRecordSchema), 'Alerts raised, newest first.'],
  [
    'TriggerRequest',
    requests.TriggerRequestSchema,
    'Where to send one signed alert: `sample` overrides or `alert` input, not both.',
  ],
  ['TriggerResult', answers.TriggerResultSchema, 'The alert sent and what came back.'],
  [
    'InboxResponse',
    requests.InboxResponseSchema,
    'How an inbox channel answers verified deliveries.',
  ],
  [
    'CreateInboxChannelRequest',
    requests.CreateInboxChannelRequestSchema,
    'An inbox channel to create.',
  ],
  ['InboxChannel', answers.InboxChannelSchema, 'An inbox channel: the URL to deliver to.'],
  [
    'InboxChannelSummary',
    answers.InboxChannelSummarySchema,
    'An inbox channel with its answer and delivery count.',
  ],
  ['InboxChannelList', answers.listOf(answers.InboxChannelSummarySchema), 'Every inbox channel.'],
  [
    'InboxDelivery',
    answers.InboxDeliverySchema,
    'One delivery the inbox received and its verdict.',
  ],
  ['InboxDeliveryList', answers.listOf(answers.InboxDeliverySchema), 'Deliveries, oldest first.'],
  ['InboxAnswer', answers.InboxAnswerSchema, 'The answer to a verified delivery.'],
  ['Revision', answers.RevisionSchema, "The inbox page's change counter."],
  [
    'ClearedDeliveries',
    answers.ClearedDeliveriesSchema,
    'How many inbox deliveries and external triggers were forgotten.',
  ],
  ['ReportingApiBody', ReportingApiBodySchema, 'CSP violations in the Reporting API format.'],
  ['LegacyCspReportBody', LegacyCspReportBodySchema, 'One CSP violation in the report-uri format.'],
  ['Alert', AlertSchema, 'The alert payload.'],
];

/** Components taken as they are from the service's document: problem bodies and the alert. */
const FROM_CONTRACT = [
  'Problem',
  'ProblemCode',
  'ProblemFieldError',
  'Alert',
  'AlertFinding',
  'AlertWebsite',
  'AlertWindow',
];

/** The component schemas: the mock's own bodies, generated from zod, and the contract's it reuses. */
export function bodySchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string; description: string }>();
  for (const [id, schema, description] of NAMED) registry.add(schema, { id, description });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    metadata: registry,
    unrepresentable: 'throw',
    uri: (id) => `#/components/schemas/${id}`,
  });
  const contract = componentSchemas();
  const out: Record<string, JsonSchema> = {};
  for (const [id] of NAMED) {
    const { $schema: _, $id: __, ...schema } = schemas[id] as JsonSchema;
    out[id] = schema;
  }
  for (const id of FROM_CONTRACT) out[id] = contract[id] as JsonSchema;
  return out;
}
