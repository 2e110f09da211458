/**
 * The sender: delivers alerts to webhook channels, counts consecutive failures, disables a
 * channel after five (spec section 3), skips disabled channels without any network request,
 * and runs the Test action (spec 4.4) without touching state.
 */
import type { CspwatchEvent } from '@cspwatch/webhooks';
import { createSampleAlert } from '@cspwatch/webhooks/node';
import { serialise } from '../alerts/serialise-alert';
import { type ChannelState, FAILURES_BEFORE_DISABLE } from '../channels/channel-state';
import { resolveSenderOptions, type WebhookSenderOptions } from '../options';
import { checkWebhookTarget, type TargetVerdict } from '../target/target-policy';
import { createGuardedAgents } from './agents';
import { attemptDelivery } from './deliver';
import { checkChannel, type DeliveryChannel } from './delivery-channel';
import { type DeliveryResult, SKIPPED_DISABLED, toDeliveryResult } from './delivery-result';

/** A webhook sender; see {@link createWebhookSender}. */
export interface WebhookSender {
  /** Delivers one alert to a channel, counting the outcome; skips a disabled channel. */
  deliver(channel: DeliveryChannel, alert: CspwatchEvent): Promise<DeliveryResult>;
  /** The Test action: sends a signed sample alert whatever the state; changes no state. */
  sendTest(channel: DeliveryChannel): Promise<DeliveryResult>;
  /** Runs the full target policy (with DNS) on a URL without sending anything. */
  checkTarget(url: string): Promise<TargetVerdict>;
  /** Reads a channel's state. */
  getState(channelId: string): Promise<ChannelState>;
  /** Re-enables a channel and resets its failure count. */
  enable(channelId: string): Promise<void>;
  /** Closes the connection pools. */
  close(): Promise<void>;
}

/**
 * Creates a webhook sender. Options are validated here (unknown keys included).
 *
 * @example
 * ```ts
 * const sender = createWebhookSender({ store: createMemoryChannelStateStore() });
 * const result = await sender.deliver(channel, buildAlert(input));
 * if (result.disabledNow) notifyOwner(channel, result);
 * ```
 */
export function createWebhookSender(options: WebhookSenderOptions = {}): WebhookSender {
  const resolved = resolveSenderOptions(options);
  const { store } = resolved;
  const agents = createGuardedAgents(resolved);
  const send = (channel: DeliveryChannel, body: Uint8Array) =>
    attemptDelivery(channel.url, channel.secret, body, resolved, agents);
  return {
    async deliver(channel, alert) {
      checkChannel(channel);
      const body = serialise(alert);
      const before = await store.get(channel.id);
      if (before.disabled) {
        const state = { ...before, disabledNow: false, test: false };
        return toDeliveryResult(channel.id, null, SKIPPED_DISABLED, state);
      }
      const outcome = await send(channel, body);
      if (outcome.ok) {
        await store.recordSuccess(channel.id);
        const after = await store.get(channel.id);
        return toDeliveryResult(channel.id, alert.id, outcome, {
          ...after,
          disabledNow: false,
          test: false,
        });
      }
      const consecutiveFailures = await store.recordFailure(channel.id);
      const disabledNow =
        consecutiveFailures >= FAILURES_BEFORE_DISABLE && (await store.disable(channel.id));
      const { disabled } = disabledNow ? { disabled: true } : await store.get(channel.id);
      const state = { consecutiveFailures, disabled, disabledNow, test: false };
      return toDeliveryResult(channel.id, alert.id, outcome, state);
    },
    async sendTest(channel) {
      checkChannel(channel);
      const alert = createSampleAlert();
      const outcome = await send(channel, serialise(alert));
      const state = await store.get(channel.id);
      return toDeliveryResult(channel.id, alert.id, outcome, {
        ...state,
        disabledNow: false,
        test: true,
      });
    },
    checkTarget: (url) => checkWebhookTarget(url, resolved),
    getState: (channelId) => store.get(channelId),
    enable: (channelId) => store.enable(channelId),
    close: () => agents.close(),
  };
}
