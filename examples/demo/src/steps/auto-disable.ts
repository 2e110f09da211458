import type { MockServer } from '@cspwatch/mock-server';
import { FAILURES_BEFORE_DISABLE, type WebhookSender } from '@cspwatch/webhook-sender';
import type { CspwatchEvent } from '@cspwatch/webhooks';
import type { Output } from '../output';

/** What the auto-disable step observed. */
export interface AutoDisableStepResult {
  /** Failed deliveries before the channel disabled itself. */
  failuresUntilDisabled: number;
  /** Whether the sender reports the channel disabled afterwards. */
  disabled: boolean;
  /** Whether the delivery after that was skipped (`channel_disabled`). */
  skippedWhenDisabled: boolean;
  /** Requests the failing endpoint received in all (the skipped one must not arrive). */
  requestsReceived: number;
}

/**
 * Points a channel at a mock-server inbox that answers 500 and delivers until the sender
 * disables the channel, then shows that one more delivery sends nothing.
 */
export async function autoDisableStep(
  mock: MockServer,
  sender: WebhookSender,
  alert: () => CspwatchEvent,
  secret: string,
  out: Output,
): Promise<AutoDisableStepResult> {
  out.step('A failing endpoint: the channel disables itself after five failures');
  const inbox = mock.service.inbox.createChannel({ secret, response: { status: 500 } });
  const channel = { id: 'failing-endpoint', url: inbox.url, secret };
  out.line(`channel → ${inbox.url} (the mock inbox, set to answer 500)`);
  let failuresUntilDisabled = 0;
  let skippedWhenDisabled = false;
  for (let attempt = 1; attempt <= FAILURES_BEFORE_DISABLE + 1; attempt++) {
    const result = await sender.deliver(channel, alert());
    if (result.cause === 'channel_disabled') {
      skippedWhenDisabled = true;
      out.ok(`delivery ${attempt}: skipped, the channel is disabled`);
      break;
    }
    const state = result.disabledNow
      ? out.style('red', 'channel disabled')
      : `${result.consecutiveFailures} consecutive failure${result.consecutiveFailures === 1 ? '' : 's'}`;
    out.line(`delivery ${attempt}: HTTP ${result.status} → ${state}`);
    if (result.disabledNow) failuresUntilDisabled = result.consecutiveFailures;
  }
  const { disabled } = await sender.getState(channel.id);
  const deliveries = mock.service.inbox.deliveries(inbox.id);
  out.ok(`the endpoint received ${deliveries.length} requests in all: nothing after the disable`);
  return {
    failuresUntilDisabled,
    disabled,
    skippedWhenDisabled,
    requestsReceived: deliveries.length,
  };
}
