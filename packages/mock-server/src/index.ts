/**
 * A mock of the cspwatch service for integration tests: the REST API (list API keys,
 * create websites), the service's alert flow (CSP report → new violation type → signed
 * webhook delivery), a webhook inbox with its page, and a control API under `/_mock/`,
 * from one fetch-handler core that the real HTTP server, the msw handlers
 * (`@cspwatch/mock-server/msw`) and the `cspwatch-mock` CLI share.
 *
 * @packageDocumentation
 */

export type { MockAlertRecord, MockAlertRule } from './alerts/alert-flow';
export type { MockWebhookChannel, MockWebhookChannelInput } from './alerts/webhook-channels';
export { createMockService, type MockService } from './app';
export { isMockServerError, MockServerError, type MockServerErrorCode } from './errors';
export type { MockTokens, MockWorkspaceIds } from './fixtures';
export type {
  CreateChannelOptions,
  InboxChannel,
  InboxDelivery,
  InboxResponse,
  MockInbox,
} from './inbox-types';
export {
  type MockRequestLogEntry,
  type MockServer,
  type MockServerOptions,
  startMockServer,
} from './node-server';
export type { MockFaultOptions, MockServiceOptions } from './options';
export type { ProblemCode, ProblemDetails, ProblemFieldError } from './problem';
export type {
  MockApiKey,
  MockPlan,
  MockUser,
  MockUserSummary,
  MockWebsite,
  MockWebsiteSettings,
  MockWorkspace,
  MockWorkspaceRole,
} from './resources';
export type {
  MockScenarioAlertRule,
  MockScenarioApiKey,
  MockScenarioInput,
  MockScenarioUser,
  MockScenarioWebhookChannel,
  MockScenarioWebsite,
  MockScenarioWorkspace,
} from './scenario/types';
export type {
  AddApiKeyInput,
  IssuedUserToken,
  MockStore,
  MockStoreSnapshot,
} from './store-types';
export type { MockTracerProvider } from './telemetry/tracing';
