/**
 * Builds the OpenAPI 3.1 document of the mock's own surface (`/_mock/openapi.json`): the
 * control API, the trigger, the webhook inbox and the report intake. Bodies come from the zod
 * schemas the routes validate with (`request-schemas.ts`, `scenario/schema.ts`) and the answer
 * schemas (`response-schemas.ts`); problem bodies, alerts and headers come from the contract,
 * the same components as the service's document. Used by the generator and tests only: the
 * server serves the committed file.
 */
import {
  buildOpenApiDocument,
  documentHead,
  errorResponse,
  type GeneratedFile,
  type JsonSchema,
  stableJson,
} from '@cspwatch/contract/generator';
import { bodySchemas } from './components';
import {
  answer,
  channelId,
  errors,
  html,
  idParameter,
  noContent,
  notFound,
  operation,
  ref,
  refusal,
  requestId,
} from './operations';

/** The path the mock serves this document at. */
export const MOCK_DOCUMENT_PATH = '/_mock/openapi.json';

/**
 * Builds the OpenAPI 3.1 document of the mock server's own surface from its zod schemas.
 * Deterministic: the same code gives the same document.
 */
export function buildMockOpenApiDocument(): JsonSchema {
  const service = buildOpenApiDocument() as { components: { headers: Record<string, JsonSchema> } };
  const channelMissing = notFound('No webhook channel with this id.', 'webhook_channel_not_found');
  const inboxMissing = notFound('No inbox channel with this id.', 'channel_not_found');
  return {
    ...documentHead({
      title: 'cspwatch mock server',
      summary: 'Control API, trigger, webhook inbox and report intake of the cspwatch mock server.',
      description:
        'Generated from the zod schemas of `@cspwatch/mock-server`; never edited by hand. The REST API the mock serves is described by the service document (`GET /openapi.json`). Control requests (`/_mock/...`) need `Authorization: Bearer <control token>` only when the mock was started with one (the CLI prints it); on a loopback address there is none. Answers may gain fields over time: read them leniently; request bodies are strict.',
      serverDescription: 'Where the mock server listens (`cspwatch-mock` prints it).',
    }),
    security: [{}, { controlToken: [] }],
    tags: [
      { name: 'State', description: 'Reset, seed a scenario, read the seeded credentials.' },
      {
        name: 'Faults',
        description: 'Latency, rate limits, server errors and dropped connections on the REST API.',
      },
      { name: 'Tokens', description: 'Issue, expire and revoke bearer tokens.' },
      {
        name: 'Alert flow',
        description: "The service's webhook channels, alert rules and the alerts raised.",
      },
      { name: 'Trigger', description: 'Send one signed alert to any URL.' },
      {
        name: 'Inbox',
        description: 'Channels that receive, verify and record webhook deliveries.',
      },
      { name: 'Reports', description: 'The report endpoints of websites (CSP violation intake).' },
      { name: 'Documents', description: 'The OpenAPI documents and the inbox page.' },
    ],
    paths: {
      [MOCK_DOCUMENT_PATH]: {
        get: operation({
          operationId: 'getMockOpenApiDocument',
          tag: 'Documents',
          summary: 'This document',
          responses: {
            '200': {
              description: 'The OpenAPI document of the mock surface.',
              headers: requestId,
              content: { 'application/json': { schema: { type: 'object' } } },
            },
          },
        }),
      },
      '/_mock/': {
        get: operation({
          operationId: 'getInboxPage',
          tag: 'Documents',
          summary: 'The inbox page',
          description:
            'A human view of channels, alerts and deliveries that refreshes itself. `GET /_mock` redirects here (308).',
          responses: { '200': html('The page.') },
        }),
      },
      '/_mock/fragment': {
        get: operation({
          operationId: 'getInboxPageFragment',
          tag: 'Documents',
          summary: 'The refreshing part of the inbox page',
          responses: { '200': html('The sections, as HTML.') },
        }),
      },
      '/_mock/revision': {
        get: operation({
          operationId: 'getRevision',
          tag: 'Documents',
          summary: "The inbox page's change counter",
          responses: { '200': answer('The counter.', 'Revision') },
        }),
      },
      '/_mock/reset': {
        post: operation({
          operationId: 'reset',
          tag: 'State',
          summary: 'Reset to the seeded state',
          description:
            'Back to the fixtures or the last scenario; removes inbox channels, releases hung requests, resets faults.',
          responses: noContent,
        }),
      },
      '/_mock/scenario': {
        post: operation({
          operationId: 'seedScenario',
          tag: 'State',
          summary: 'Seed a scenario',
          description:
            'Validates the scenario (every problem listed, with its path), makes it the seeded state and resets to it.',
          body: 'Scenario',
          responses: { '201': answer('Seeded.', 'SeedSummary') },
        }),
        delete: operation({
          operationId: 'dropScenario',
          tag: 'State',
          summary: 'Back to the built-in fixtures',
          responses: { '200': answer('The fixtures, seeded.', 'SeedSummary') },
        }),
      },
      '/_mock/state': {
        get: operation({
          operationId: 'readState',
          tag: 'State',
          summary: 'The seeded credentials and endpoints',
          responses: { '200': answer('The seeded state.', 'SeedSummary') },
        }),
      },
      '/_mock/faults': {
        get: operation({
          operationId: 'readFaults',
          tag: 'Faults',
          summary: 'The fault settings in force',
          responses: { '200': answer('The settings.', 'FaultSettings') },
        }),
        put: operation({
          operationId: 'replaceFaults',
          tag: 'Faults',
          summary: 'Replace the fault settings',
          description: '`{}` turns every fault off.',
          body: 'FaultsRequest',
          responses: { '200': answer('The settings now in force.', 'FaultSettings') },
        }),
      },
      '/_mock/tokens': {
        post: operation({
          operationId: 'issueToken',
          tag: 'Tokens',
          summary: 'Issue a token',
          body: 'IssueTokenRequest',
          responses: { '201': answer('The token.', 'IssuedToken') },
          errors: [
            notFound('No user or API key with this id.', 'user_not_found', 'api_key_not_found'),
          ],
        }),
      },
      '/_mock/tokens/expire': {
        post: operation({
          operationId: 'expireToken',
          tag: 'Tokens',
          summary: 'Expire a token',
          description: 'The token gets `401 invalid_token` from now on.',
          body: 'EndTokenRequest',
          responses: noContent,
          errors: [notFound('No token that authenticates matches.', 'token_not_found')],
        }),
      },
      '/_mock/tokens/revoke': {
        post: operation({
          operationId: 'revokeToken',
          tag: 'Tokens',
          summary: 'Revoke a token',
          description: 'The token gets `401 invalid_token` from now on.',
          body: 'EndTokenRequest',
          responses: noContent,
          errors: [notFound('No token that authenticates matches.', 'token_not_found')],
        }),
      },
      '/_mock/webhook-channels': {
        get: operation({
          operationId: 'listWebhookChannels',
          tag: 'Alert flow',
          summary: 'List webhook channels',
          responses: { '200': answer('Every channel.', 'WebhookChannelList') },
        }),
        post: operation({
          operationId: 'createWebhookChannel',
          tag: 'Alert flow',
          summary: 'Create a webhook channel',
          description:
            "The URL must pass the sender's target policy (https on a public host, or loopback when the mock allows it); the secret is at least 8 characters.",
          body: 'CreateWebhookChannelRequest',
          responses: { '201': answer('The channel (no secret).', 'WebhookChannel') },
        }),
      },
      '/_mock/webhook-channels/{channelId}': {
        patch: operation({
          operationId: 'updateWebhookChannel',
          tag: 'Alert flow',
          summary: 'Edit a webhook channel',
          description: '`enabled: true` re-enables it and resets the failure count.',
          parameters: [channelId],
          body: 'UpdateWebhookChannelRequest',
          responses: { '200': answer('The channel.', 'WebhookChannel') },
          errors: [channelMissing],
        }),
        delete: operation({
          operationId: 'deleteWebhookChannel',
          tag: 'Alert flow',
          summary: 'Delete a webhook channel',
          parameters: [channelId],
          responses: noContent,
          errors: [channelMissing],
        }),
      },
      '/_mock/webhook-channels/{channelId}/test': {
        post: operation({
          operationId: 'testWebhookChannel',
          tag: 'Alert flow',
          summary: 'Test a webhook channel',
          description:
            'The Test action: signs and sends one sample `csp-violation:new-type` alert to the channel now, whatever its state, and answers `200` whatever the receiver answered. The failure count and the state do not change.',
          parameters: [channelId],
          responses: { '200': answer('What the delivery gave.', 'DeliveryResult') },
          errors: [channelMissing],
        }),
      },
      '/_mock/alert-rules': {
        get: operation({
          operationId: 'listAlertRules',
          tag: 'Alert flow',
          summary: 'List alert rules',
          responses: { '200': answer('Every rule.', 'AlertRuleList') },
        }),
        post: operation({
          operationId: 'createAlertRule',
          tag: 'Alert flow',
          summary: 'Create an alert rule',
          description: 'The website and the channels must exist.',
          body: 'CreateAlertRuleRequest',
          responses: { '201': answer('The rule.', 'AlertRule') },
        }),
      },
      '/_mock/alert-rules/{ruleId}': {
        delete: operation({
          operationId: 'deleteAlertRule',
          tag: 'Alert flow',
          summary: 'Delete an alert rule',
          parameters: [idParameter('ruleId', 'The rule id.')],
          responses: noContent,
          errors: [notFound('No alert rule with this id.', 'rule_not_found')],
        }),
      },
      '/_mock/alerts': {
        get: operation({
          operationId: 'listAlerts',
          tag: 'Alert flow',
          summary: 'List the alerts raised',
          parameters: [
            {
              name: 'wait',
              in: 'query',
              required: false,
              description: '`1`: first wait for the deliveries in flight.',
              schema: { type: 'string', enum: ['1'] },
            },
          ],
          responses: {
            '200': answer('Alerts, newest first, with their delivery results.', 'AlertRecordList'),
          },
        }),
      },
      '/_mock/trigger': {
        post: operation({
          operationId: 'trigger',
          tag: 'Trigger',
          summary: 'Send one signed alert',
          description:
            'Signs and sends the sample alert (with `sample` overrides) or `alert` (input of `buildAlert`) to `to`; answers `200` whatever the receiver answered.',
          body: 'TriggerRequest',
          responses: { '200': answer('What was sent and what came back.', 'TriggerResult') },
        }),
      },
      '/_mock/inbox/channels': {
        get: operation({
          operationId: 'listInboxChannels',
          tag: 'Inbox',
          summary: 'List inbox channels',
          responses: { '200': answer('Every inbox channel.', 'InboxChannelList') },
        }),
        post: operation({
          operationId: 'createInboxChannel',
          tag: 'Inbox',
          summary: 'Create an inbox channel',
          description: 'Point a sender at the returned `url`; the secret is never returned.',
          body: 'CreateInboxChannelRequest',
          responses: { '201': answer('The channel.', 'InboxChannel') },
        }),
      },
      '/_mock/inbox/channels/{channelId}/response': {
        put: operation({
          operationId: 'setInboxResponse',
          tag: 'Inbox',
          summary: 'Set how a channel answers',
          parameters: [channelId],
          body: 'InboxResponse',
          responses: noContent,
          errors: [inboxMissing],
        }),
      },
      '/_mock/inbox/deliveries': {
        delete: operation({
          operationId: 'clearAllInboxDeliveries',
          tag: 'Inbox',
          summary: 'Forget every delivery and external trigger',
          description:
            "The inbox page's Clear button: forgets the deliveries of every inbox channel and the triggers sent to receivers outside the mock; channels, webhook channels, rules and alerts stay. Takes no query parameter.",
          responses: { '200': answer('How many records were forgotten.', 'ClearedDeliveries') },
          errors: [
            {
              status: '400',
              description: 'A query parameter was given.',
              codes: ['validation_failed'],
            },
          ],
        }),
      },
      '/_mock/inbox/channels/{channelId}/deliveries': {
        get: operation({
          operationId: 'listInboxDeliveries',
          tag: 'Inbox',
          summary: "A channel's deliveries",
          parameters: [channelId],
          responses: { '200': answer('Oldest first, each with its verdict.', 'InboxDeliveryList') },
          errors: [inboxMissing],
        }),
        delete: operation({
          operationId: 'clearInboxDeliveries',
          tag: 'Inbox',
          summary: "Forget a channel's deliveries",
          parameters: [channelId],
          responses: noContent,
          errors: [inboxMissing],
        }),
      },
      '/inbox/{channelId}': {
        post: {
          operationId: 'deliverToInbox',
          tags: ['Inbox'],
          summary: 'Deliver a webhook to an inbox channel',
          description:
            "The channel's URL: verifies the signature with the channel's secret, records the delivery, and answers as configured (200 by default).",
          security: [],
          parameters: [
            channelId,
            ...(
              service as JsonSchema as {
                webhooks: { alert: { post: { parameters: JsonSchema[] } } };
              }
            ).webhooks.alert.post.parameters,
          ],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref('Alert') } },
          },
          responses: {
            '2XX': answer(
              'Verified; the configured status, 200 by default (204: no body).',
              'InboxAnswer',
            ),
            '400': refusal(
              'Refused as the adapters refuse it, and recorded: `code` names the check that failed (`signature_mismatch`, `timestamp_too_old`, `timestamp_in_future`, `missing_header`, `invalid_json`, …).',
            ),
            '404': errorResponse(inboxMissing),
            '409': refusal(
              'A signed request this channel received before: `replayed_delivery` (after a 5xx or hung answer the same request is taken again).',
            ),
            default: answer(
              'Verified; the configured status, e.g. 500, or 302 with `location`.',
              'InboxAnswer',
            ),
          },
        },
      },
      '/inbox/{channelId}/deliveries': {
        get: operation({
          operationId: 'listInboxChannelDeliveries',
          tag: 'Inbox',
          summary: "A channel's deliveries (outside the control prefix)",
          control: false,
          parameters: [channelId],
          responses: { '200': answer('Oldest first, each with its verdict.', 'InboxDeliveryList') },
          errors: [inboxMissing],
        }),
      },
      '/reports/{endpointId}': {
        post: {
          operationId: 'sendReports',
          tags: ['Reports'],
          summary: 'Send CSP violation reports',
          description:
            "A website's `endpointUrl`: reads violations (at most 1 MB), answers `204`, and raises a `csp-violation:new-type` alert per alert rule for each new directive and origin pair.",
          security: [],
          parameters: [idParameter('endpointId', 'The report endpoint of a website.')],
          requestBody: {
            required: true,
            content: {
              'application/reports+json': { schema: ref('ReportingApiBody') },
              'application/csp-report': { schema: ref('LegacyCspReportBody') },
              'application/json': {
                schema: { anyOf: [ref('ReportingApiBody'), ref('LegacyCspReportBody')] },
              },
            },
          },
          responses: {
            ...noContent,
            ...errors([
              {
                status: '400',
                description: 'A report is not valid.',
                codes: ['validation_failed', 'malformed_json'],
              },
              notFound('No website has this report endpoint.', 'endpoint_not_found'),
              {
                status: '413',
                description: 'The body is larger than 1 MB.',
                codes: ['payload_too_large'],
              },
              {
                status: '415',
                description: 'Not a report content type.',
                codes: ['unsupported_media_type'],
              },
            ]),
          },
        },
      },
    },
    components: {
      schemas: bodySchemas(),
      securitySchemes: {
        controlToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The control token the mock printed when it started (only when it runs with one).',
        },
      },
      headers: {
        RequestId: service.components.headers.RequestId,
        WwwAuthenticate: service.components.headers.WwwAuthenticate,
      },
    },
  };
}

/** The command that rewrites the mock's generated document. */
export const MOCK_GENERATE_COMMAND = 'pnpm --filter @cspwatch/mock-server generate';

/** The files the mock generates: its OpenAPI document, shipped in the package. */
export function mockGeneratedFiles(): GeneratedFile[] {
  return [
    { path: 'packages/mock-server/openapi.json', content: stableJson(buildMockOpenApiDocument()) },
  ];
}
