/**
 * One delivery outside any channel state, with its own connection pool: what the CLI's `send`
 * does. The same target policy, signing and outcome as {@link createWebhookSender}'s.
 */
import type { CspwatchEvent } from '@cspwatch/webhooks';
import { serialise } from '../alerts/serialise-alert';
import { resolveSenderOptions, type WebhookSenderOptions } from '../options';
import { createGuardedAgents } from './agents';
import { attemptDelivery } from './deliver';
import { checkChannel, type DeliveryChannel } from './delivery-channel';
import { type DeliveryResult, toDeliveryResult } from './delivery-result';
import type { SigningVariant } from './signing-variant';

/** Sends `alert` once to `channel`, signed as `variant` says; no state is read or written. */
export async function sendOnce(
  channel: DeliveryChannel,
  alert: CspwatchEvent,
  options: WebhookSenderOptions,
  variant: SigningVariant = 'signed',
): Promise<DeliveryResult> {
  checkChannel(channel);
  const body = serialise(alert);
  const resolved = resolveSenderOptions(options);
  const agents = createGuardedAgents(resolved);
  try {
    const outcome = await attemptDelivery(
      channel.url,
      channel.secret,
      body,
      resolved,
      agents,
      variant,
    );
    const state = { consecutiveFailures: 0, disabled: false, disabledNow: false, test: true };
    return toDeliveryResult(channel.id, alert.id, outcome, state);
  } finally {
    await agents.close();
  }
}
