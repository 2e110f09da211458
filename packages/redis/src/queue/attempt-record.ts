/**
 * A worker's channel state around one attempt: one read of the disabled flag before it, and
 * one script after it that updates the shared state and appends the history entry together
 * (two Redis commands per attempt instead of the store's three plus the history append).
 */
import { FAILURES_BEFORE_DISABLE } from '@cspwatch/webhook-sender';
import { appendOnceArgs, type DeliveryAttemptEntry, type HistoryRetention } from './history';
import type { QueueKeys } from './keys';
import type { ScriptedRedis } from './scripts';

/** An attempt's entry before Redis counted it (the script adds the two state fields). */
export type AttemptOutcome = Omit<
  DeliveryAttemptEntry,
  'id' | 'consecutiveFailures' | 'disabledNow'
>;

/** `true` when the channel is disabled (nothing may be sent to it). */
export async function isChannelDisabled(
  redis: ScriptedRedis,
  keys: QueueKeys,
  channelId: string,
): Promise<boolean> {
  return (await redis.exists(keys.disabled(channelId))) === 1;
}

/**
 * Counts the attempt on the channel (a success resets the count, a failure adds one and the
 * fifth in a row disables the channel) and records it in the history, atomically and once.
 * Resolves to `true` when the channel is disabled afterwards (by this attempt or before).
 */
export async function recordAttempt(
  redis: ScriptedRedis,
  keys: QueueKeys,
  outcome: AttemptOutcome,
  retention: HistoryRetention,
): Promise<boolean> {
  const { channelId } = outcome;
  const history = keys.history(channelId);
  const once = appendOnceArgs(history, retention);
  const reply = (await redis.cspwatchRecordAttempt(
    keys.failures(channelId),
    keys.disabled(channelId),
    history,
    once.onceKey,
    outcome.ok ? '1' : '0',
    JSON.stringify(outcome).slice(0, -1),
    String(FAILURES_BEFORE_DISABLE),
    ...once.retention,
  )) as string;
  // "<consecutive failures>:<disabled now>:<disabled>"; the history entry holds the first two.
  return reply.endsWith(':1');
}
