/**
 * The sender: delivers alerts to webhook channels, counts each attempt on the channel's state
 * (the store's one atomic step disables a channel after five failures in a row), skips
 * disabled channels without any network request, and runs the Test action without touching
 * state.
 */
import type { CspwatchEvent } from '@cspwatch/webhooks';
import { createSampleAlert } from '@cspwatch/webhooks/node';
import { serialise } from '../alerts/serialise-alert';
import { type ChannelState, FAILURES_BEFORE_DISABLE } from '../channels/channel-state';
import { resolveSenderOptions, type WebhookSenderOptions } from '../options';
import { checkWebhookTarget, type TargetVerdict } from '../target/target-policy';
import { createSenderTracing } from '../telemetry/tracing';
import { createGuardedAgents } from './agents';
import { attemptDelivery } from './deliver';
import { checkChannel, type DeliveryChannel } from './delivery-channel';
import {
  type DeliveryResult,
  SKIPPED_DISABLED,
  toAttemptReport,
  toDeliveryResult,
  withState,
} from './delivery-result';

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
  const tracing = createSenderTracing(resolved.tracerProvider);
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
      const span = tracing.startAttempt(channel, alert.id, false);
      try {
        const outcome = await span.run(() => send(channel, body));
        // A URL the policy refuses as written is the channel's configuration, not the receiver's
        // failure: reported, not counted (a name that now resolves to a private address counts).
        if (outcome.rejection?.stage === 'url') {
          const state = { ...before, disabledNow: false, test: false };
          return toDeliveryResult(channel.id, alert.id, outcome, state);
        }
        const delivery = toAttemptReport(channel.id, alert.id, outcome);
        const after = await store.recordAttempt(channel.id, {
          ok: outcome.ok,
          failuresToDisable: FAILURES_BEFORE_DISABLE,
          delivery,
        });
        span.noteState(after);
        return withState(delivery, { ...after, test: false });
      } finally {
        span.end();
      }
    },
    async sendTest(channel) {
      checkChannel(channel);
      const alert = createSampleAlert();
      const span = tracing.startAttempt(channel, alert.id, true);
      const outcome = await span.run(() => send(channel, serialise(alert))).finally(span.end);
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
