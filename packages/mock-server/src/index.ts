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
export { createMockService, type MockService } from './core/app';
export {
  isMockServerError,
  MockServerError,
  type MockServerErrorCode,
  type MockServerErrorOptions,
  type MockServerIssue,
} from './errors';
export type { ProblemCode, ProblemDetails, ProblemFieldError } from './http/problem';
export type * from './inbox/types';
export type { MockServiceOptions } from './options';
export type { MockFaultOptions } from './rules/faults';
export type {
  MockScenarioAlertRule,
  MockScenarioApiKey,
  MockScenarioInput,
  MockScenarioUser,
  MockScenarioWebhookChannel,
  MockScenarioWebsite,
  MockScenarioWorkspace,
} from './scenario/schema';
export type { MockTokens, MockWorkspaceIds } from './store/fixtures';
export type * from './store/resources';
export type * from './store/store-types';
export type { MockTracerProvider } from './telemetry/tracing';
export {
  type MockRequestLogEntry,
  type MockServer,
  type MockServerOptions,
  startMockServer,
} from './transports/node-server';
