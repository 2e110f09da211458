/**
 * @cspwatch/webhook-sender: the reference sender of cspwatch webhook deliveries. It builds
 * alerts, refuses unsafe targets (https only, public addresses only, checked again at connect
 * time), signs with `@cspwatch/webhooks`, delivers, counts failures and disables a channel
 * after five in a row. The Test action sends a signed sample alert without touching state.
 *
 * @packageDocumentation
 */

export type { InstantInput } from './alerts/alert-fields';
export { type BuildAlertInput, buildAlert, type NewTypeFindingInput } from './alerts/alerts';
export type { ChannelValidationOptions } from './channels/channel-fields';
export {
  type ChannelAttempt,
  type ChannelState,
  type ChannelStateStore,
  createMemoryChannelStateStore,
  FAILURES_BEFORE_DISABLE,
  type RecordedAttempt,
} from './channels/channel-state';
export {
  createWebhookChannel,
  maskSecret,
  toWebhookChannelView,
  updateWebhookChannel,
  type WebhookChannel,
  type WebhookChannelInput,
  type WebhookChannelPatch,
  type WebhookChannelView,
} from './channels/channels';
export type { AttemptReport } from './delivery/attempt-report';
export { createWebhookSender, type WebhookSender } from './delivery/create-sender';
export type { DeliveryChannel } from './delivery/delivery-channel';
export type { DeliveryResult } from './delivery/delivery-result';
export type { DeliveryFailureCause } from './delivery/failure-cause';
export {
  isWebhookSenderError,
  type ValidationIssue,
  WebhookSenderError,
  type WebhookSenderErrorCode,
} from './errors';
export { DEFAULT_SENDER_OPTIONS, type WebhookSenderOptions } from './options';
export type { HostNameRejection } from './target/host-name';
export type { AddressPolicy, AddressRejection } from './target/ip-policy';
export type { HostResolver } from './target/resolver';
export {
  checkWebhookTarget,
  checkWebhookTargetStatic,
  type StaticTargetAcceptance,
  type StaticTargetVerdict,
  type TargetAcceptance,
  type TargetPolicyOptions,
  type TargetRejection,
  type TargetRejectionReason,
  type TargetVerdict,
} from './target/target-policy';
export type { SenderTracerProvider } from './telemetry/tracing';
export { VERSION } from './version';
