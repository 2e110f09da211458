/**
 * The end of an attempt that held an in-flight slot: counted by the channel rule (unless it
 * was stopped by the channel's configuration), recorded in the channel's history and the
 * alert's log, its slot given back, and the oldest job waiting for a slot of the channel
 * popped (for the caller to promote). On one redis-server all of it is one script; on a Redis
 * Cluster the alert's log lives in another slot, so the sender's store counts the attempt (its
 * own script), then one script ends it on the channel's keys and another writes the log.
 */
import type { ChannelAttempt, RecordedAttempt } from '@cspwatch/webhook-sender';
import type { DeliveryAttemptEntry, HistoryRetention } from './history';
import { entryParts, onceKey } from './history';
import type { QueueKeys } from './keys';
import type { ScriptedRedis } from './scripts';

/** An attempt entry before the channel rule gave it its failure count and `disabledNow`. */
export type UncountedEntry = Omit<
  DeliveryAttemptEntry,
  'id' | 'consecutiveFailures' | 'disabledNow'
>;

/** What an attempt's end came to. */
export interface AttemptEnd {
  /** The channel's state after the attempt (what the store's `recordAttempt` answers). */
  readonly recorded: RecordedAttempt;
  /** The entry recorded. */
  readonly entry: Omit<DeliveryAttemptEntry, 'id'>;
  /** The job popped from the channel's waiting room, to promote, or `null`. */
  readonly next: string | null;
}

/** How the attempt counts: by the channel rule, or not (a channel problem, with the count now). */
export type AttemptCount =
  | { readonly counted: true; readonly attempt: ChannelAttempt }
  | { readonly counted: false; readonly consecutiveFailures: number };

/**
 * Ends an attempt in one script on one redis-server (see `END_ATTEMPT_ONE_NODE` in scripts.ts);
 * a script re-sent after a reconnect answers what its first run did and writes nothing twice.
 */
export async function endAttemptOnOneNode(
  redis: ScriptedRedis,
  keys: QueueKeys,
  retention: HistoryRetention,
  entry: UncountedEntry,
  slot: string,
  count: AttemptCount,
): Promise<AttemptEnd> {
  const { channelId } = entry;
  const parts = entryParts(keys, entry, retention);
  // The entry's JSON up to its failure count, which the script appends with `disabledNow`.
  const head = `${JSON.stringify(entry).slice(0, -1)},"consecutiveFailures":`;
  const reply = (await redis.cspwatchEndAttemptOneNode(
    parts.stream,
    parts.alert,
    keys.inFlight(channelId),
    keys.waitingRoom(channelId),
    keys.failures(channelId),
    keys.disabled(channelId),
    count.counted ? (count.attempt.ok ? 'ok' : 'failed') : 'uncounted',
    String(count.counted ? count.attempt.failuresToDisable : count.consecutiveFailures),
    slot,
    parts.alertEntryId,
    head,
    ...parts.retentionArgs,
    String(retention.maxAgeMs),
  )) as [number, number, number, string];
  const [consecutiveFailures, now, disabled, next] = reply;
  const recorded = { consecutiveFailures, disabled: disabled === 1, disabledNow: now === 1 };
  return {
    recorded,
    entry: { ...entry, consecutiveFailures, disabledNow: recorded.disabledNow },
    next: next === '' ? null : next,
  };
}

/**
 * Ends an attempt the store already counted (`entry` has its count), on a Redis Cluster: the
 * channel's script (history entry, slot, waiting room) and the alert's log, each idempotent.
 */
export async function finishCountedAttempt(
  redis: ScriptedRedis,
  keys: QueueKeys,
  retention: HistoryRetention,
  entry: Omit<DeliveryAttemptEntry, 'id'>,
  slot: string,
): Promise<string | null> {
  const { channelId } = entry;
  const parts = entryParts(keys, entry, retention);
  const json = JSON.stringify(entry);
  const [popped] = await Promise.all([
    redis.cspwatchFinishAttempt(
      parts.stream,
      onceKey(parts.stream),
      keys.inFlight(channelId),
      keys.waitingRoom(channelId),
      json,
      ...parts.retentionArgs,
      slot,
    ) as Promise<string[]>,
    redis.cspwatchAppendAlert(parts.alert, parts.alertEntryId, json, String(retention.maxAgeMs)),
  ]);
  return popped[0] ?? null;
}
