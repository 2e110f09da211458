/**
 * @cspwatch/webhook-sender: the reference sender of cspwatch webhook deliveries. It builds
 * alerts, refuses unsafe targets (https only, public addresses only, checked again at connect
 * time), signs with `@cspwatch/webhooks`, delivers, counts failures and disables a channel
 * after five in a row. The Test action sends a signed sample alert without touching state.
 *
 * @packageDocumentation
 */

export type { InstantInput } from './alert-fields.js';
export { type BuildAlertInput, buildAlert, type NewTypeFindingInput } from './alerts.js';
export {
  type ChannelState,
  type ChannelStateStore,
  createMemoryChannelStateStore,
  FAILURES_BEFORE_DISABLE,
} from './channel-state.js';
export {
  type ChannelValidationOptions,
  createWebhookChannel,
  maskSecret,
  toWebhookChannelView,
  updateWebhookChannel,
  type WebhookChannel,
  type WebhookChannelInput,
  type WebhookChannelPatch,
  type WebhookChannelView,
} from './channels.js';
export { createWebhookSender, type WebhookSender } from './create-sender.js';
export type { DeliveryFailureCause } from './deliver.js';
export type { DeliveryChannel, DeliveryResult } from './delivery-result.js';
export {
  isWebhookSenderError,
  type ValidationIssue,
  WebhookSenderError,
  type WebhookSenderErrorCode,
} from './errors.js';
export type { HostNameRejection } from './host-name.js';
export type { AddressPolicy, AddressRejection } from './ip-policy.js';
export { DEFAULT_SENDER_OPTIONS, type WebhookSenderOptions } from './options.js';
export type { HostResolver } from './resolver.js';
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
} from './target-policy.js';
export { VERSION } from './version.js';
