/**
 * @cspwatch/webhook-sender: the reference sender of cspwatch webhook deliveries. It builds
 * alerts, refuses unsafe targets (https only, public addresses only, checked again at connect
 * time), signs with `@cspwatch/webhooks`, delivers, counts failures and disables a channel
 * after five in a row. The Test action sends a signed sample alert without touching state.
 *
 * @packageDocumentation
 */

export type { InstantInput } from './alerts/alert-fields.js';
export { type BuildAlertInput, buildAlert, type NewTypeFindingInput } from './alerts/alerts.js';
export type { ChannelValidationOptions } from './channels/channel-fields.js';
export {
  type ChannelState,
  type ChannelStateStore,
  createMemoryChannelStateStore,
  FAILURES_BEFORE_DISABLE,
} from './channels/channel-state.js';
export {
  createWebhookChannel,
  maskSecret,
  toWebhookChannelView,
  updateWebhookChannel,
  type WebhookChannel,
  type WebhookChannelInput,
  type WebhookChannelPatch,
  type WebhookChannelView,
} from './channels/channels.js';
export { createWebhookSender, type WebhookSender } from './delivery/create-sender.js';
export type { DeliveryFailureCause } from './delivery/deliver.js';
export type { DeliveryChannel } from './delivery/delivery-channel.js';
export type { DeliveryResult } from './delivery/delivery-result.js';
export {
  isWebhookSenderError,
  type ValidationIssue,
  WebhookSenderError,
  type WebhookSenderErrorCode,
} from './errors.js';
export { DEFAULT_SENDER_OPTIONS, type WebhookSenderOptions } from './options.js';
export type { HostNameRejection } from './target/host-name.js';
export type { AddressPolicy, AddressRejection } from './target/ip-policy.js';
export type { HostResolver } from './target/resolver.js';
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
} from './target/target-policy.js';
export { VERSION } from './version.js';
