/**
 * Counts what a fleet run came to on one channel, from both ends: what its receiver got (the
 * inbox's verified deliveries, or a test receiver's requests) and what the queue says (the
 * channel's history, its parked alerts, its state, and `getAlertHistory` for a sample).
 */

import type { InboxDelivery } from '@cspwatch/mock-server';
import type { DeliveryHistoryEntry, DeliveryQueue } from '@cspwatch/redis/queue';

/** What one receiver got for one channel. */
export interface ReceivedRequests {
  /** Requests that reached it. */
  readonly requests: number;
  /** Requests that failed signature verification (none expected). */
  readonly unverified: number;
  /** Per payload `id`: requests, and how many were answered 2xx. */
  readonly byAlert: ReadonlyMap<string, { requests: number; ok: number }>;
}

/** Counts a mock inbox channel's deliveries, plus requests answered before the inbox (a proxy's). */
export function fromInbox(
  deliveries: readonly InboxDelivery[],
  answeredBefore: readonly (string | null)[] = [],
): ReceivedRequests {
  const byAlert = new Map<string, { requests: number; ok: number }>();
  const count = (id: string | null | undefined, ok: boolean) => {
    if (!id) return;
    const seen = byAlert.get(id) ?? { requests: 0, ok: 0 };
    seen.requests++;
    if (ok) seen.ok++;
    byAlert.set(id, seen);
  };
  for (const delivery of deliveries) {
    const ok = delivery.status !== null && delivery.status >= 200 && delivery.status < 300;
    count(delivery.event?.id, ok);
  }
  for (const id of answeredBefore) count(id, false);
  return {
    requests: deliveries.length + answeredBefore.length,
    unverified: deliveries.filter((delivery) => !delivery.verified).length,
    byAlert,
  };
}

/** A receiver that cannot tell alerts apart (a raw socket count), or that got nothing. */
export const requestsOnly = (requests: number): ReceivedRequests => ({
  requests,
  unverified: 0,
  byAlert: new Map(),
});

/** Attempt causes that are the channel's configuration: nothing was sent, nothing counted. */
const CHANNEL_PROBLEMS = new Set(['invalid_channel', 'channel_lookup_failed']);

/** The counts of one channel after a run. */
export interface ChannelTally {
  readonly sent: number;
  /** Alerts sent on the channel that got at least one 2xx. */
  readonly delivered: number;
  /** Alerts answered 2xx more than once on the channel (their ids in `duplicateIds`). */
  readonly duplicates: number;
  readonly duplicateIds: readonly string[];
  /** 2xx answers for alerts never sent on this channel. */
  readonly strangers: number;
  /** Alerts whose newest event is `parked`, by reason. */
  readonly parked: Readonly<Record<string, number>>;
  /** Alerts neither delivered nor parked (their ids in `lostIds`). */
  readonly lost: number;
  readonly lostIds: readonly string[];
  /** Alerts both delivered and parked now. */
  readonly deliveredAndParked: number;
  /** Attempt entries for which a request was made (whatever came of it). */
  readonly attempts: number;
  /** Attempt entries stopped by the channel's configuration, by cause. */
  readonly problems: Readonly<Record<string, number>>;
  /** Attempt entries answered 2xx. */
  readonly okAttempts: number;
  /** The longest attempt, ms. */
  readonly slowestAttemptMs: number;
  /**
   * Alerts with an attempt that timed out: the receiver may have answered 2xx after the
   * sender gave up, so a retry can deliver them twice (the receiver's idempotency case).
   */
  readonly timedOutIds: readonly string[];
  /** Requests at the receiver; `unverified` of them failed verification. */
  readonly requests: number;
  readonly unverified: number;
  /** Attempt entries with `disabledNow`. */
  readonly disabledNow: number;
  /** `released` entries (alerts put back in the queue). */
  readonly released: number;
  /** `countParked`, and the channel state, as the queue answers them. */
  readonly countParked: number;
  readonly disabled: boolean;
  readonly consecutiveFailures: number;
  /** Alerts that were parked and released at least once. */
  readonly releasedIds: readonly string[];
}

/** Every entry of a channel's history, newest first. */
export async function everyHistoryEntry(
  queue: DeliveryQueue,
  channelId: string,
): Promise<DeliveryHistoryEntry[]> {
  const entries: DeliveryHistoryEntry[] = [];
  let cursor: string | null = null;
  do {
    const page = await queue.getHistory(channelId, { limit: 1000, cursor });
    entries.push(...page.entries);
    cursor = page.nextCursor;
  } while (cursor);
  return entries;
}

const bump = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

/** Tallies one channel; `history` is its whole history, newest first. */
export async function tallyChannel(
  queue: DeliveryQueue,
  channelId: string,
  sent: readonly string[],
  received: ReceivedRequests,
  history: readonly DeliveryHistoryEntry[],
): Promise<ChannelTally> {
  const sentIds = new Set(sent);
  const newestEvent = new Map<string, DeliveryHistoryEntry>();
  const problems: Record<string, number> = {};
  const releasedIds = new Set<string>();
  const timedOutIds = new Set<string>();
  let attempts = 0;
  let okAttempts = 0;
  let disabledNow = 0;
  let released = 0;
  let slowestAttemptMs = 0;
  for (const entry of history) {
    if (entry.kind === 'attempt') {
      if (entry.cause !== null && CHANNEL_PROBLEMS.has(entry.cause)) bump(problems, entry.cause);
      else attempts++;
      if (entry.ok) okAttempts++;
      if (entry.disabledNow) disabledNow++;
      if (entry.cause === 'timeout') timedOutIds.add(entry.alertId);
      slowestAttemptMs = Math.max(slowestAttemptMs, entry.durationMs);
      continue;
    }
    if (entry.kind === 'released') {
      released++;
      releasedIds.add(entry.alertId);
    }
    if (!newestEvent.has(entry.alertId)) newestEvent.set(entry.alertId, entry);
  }
  const parked: Record<string, number> = {};
  const parkedIds = new Set<string>();
  for (const [alertId, entry] of newestEvent) {
    if (entry.kind !== 'parked') continue;
    parkedIds.add(alertId);
    bump(parked, entry.reason ?? 'none');
  }
  const deliveredIds = new Set<string>();
  const duplicateIds: string[] = [];
  let strangers = 0;
  for (const [alertId, { ok }] of received.byAlert) {
    if (ok === 0) continue;
    if (!sentIds.has(alertId)) strangers += ok;
    deliveredIds.add(alertId);
    if (ok > 1) duplicateIds.push(alertId);
  }
  const lostIds = sent.filter((id) => !deliveredIds.has(id) && !parkedIds.has(id));
  const state = await queue.getChannelState(channelId);
  return {
    sent: sent.length,
    delivered: sent.filter((id) => deliveredIds.has(id)).length,
    duplicates: duplicateIds.length,
    duplicateIds,
    strangers,
    parked,
    lost: lostIds.length,
    lostIds,
    deliveredAndParked: sent.filter((id) => deliveredIds.has(id) && parkedIds.has(id)).length,
    attempts,
    problems,
    okAttempts,
    slowestAttemptMs,
    timedOutIds: [...timedOutIds],
    requests: received.requests,
    unverified: received.unverified,
    disabledNow,
    released,
    countParked: await queue.countParked(channelId),
    disabled: state.disabled,
    consecutiveFailures: state.consecutiveFailures,
    releasedIds: [...releasedIds],
  };
}

/** How `getAlertHistory` of a sample of alerts compares with the channel's history and receiver. */
export interface SampleAgreement {
  readonly checked: number;
  /** Alerts whose entries on the channel differ between `getAlertHistory` and `getHistory`. */
  readonly unlikeChannelHistory: readonly string[];
  /** Alerts whose 2xx attempts in `getAlertHistory` differ from the receiver's 2xx answers. */
  readonly unlikeReceiverOk: readonly string[];
  /** Alerts whose attempts that sent a request differ from the requests the receiver got. */
  readonly unlikeReceiverRequests: readonly string[];
}

const signature = (entry: DeliveryHistoryEntry) =>
  entry.kind === 'attempt'
    ? `attempt ${entry.attempt} ${entry.ok} ${entry.cause} ${entry.disabledNow}`
    : `${entry.kind} ${entry.attempt} ${entry.reason}`;

/** Compares one alert's history (`getAlertHistory`) with the channel's and the receiver's, for `sample`. */
export async function checkAlertHistories(
  queue: DeliveryQueue,
  channelId: string,
  sample: readonly string[],
  received: ReceivedRequests,
  history: readonly DeliveryHistoryEntry[],
  receiverSeesEachAlert: boolean,
): Promise<SampleAgreement> {
  const unlikeChannelHistory: string[] = [];
  const unlikeReceiverOk: string[] = [];
  const unlikeReceiverRequests: string[] = [];
  for (const alertId of sample) {
    const own = (await queue.getAlertHistory(alertId)).filter(
      (entry) => entry.channelId === channelId,
    );
    const fromChannel = history.filter((entry) => entry.alertId === alertId);
    const mine = own.map(signature).sort().join('\n');
    if (mine !== fromChannel.map(signature).sort().join('\n')) unlikeChannelHistory.push(alertId);
    const tried = own.filter(
      (entry) => entry.kind === 'attempt' && !(entry.cause && CHANNEL_PROBLEMS.has(entry.cause)),
    );
    const got = received.byAlert.get(alertId) ?? { requests: 0, ok: 0 };
    const ok = tried.filter((entry) => entry.kind === 'attempt' && entry.ok).length;
    if (ok !== got.ok) unlikeReceiverOk.push(alertId);
    if (receiverSeesEachAlert && tried.length !== got.requests)
      unlikeReceiverRequests.push(alertId);
  }
  return { checked: sample.length, unlikeChannelHistory, unlikeReceiverOk, unlikeReceiverRequests };
}

/** Up to `size` ids: the first and last few, every `also` id, and a random rest. */
export function sampleOf(ids: readonly string[], size: number, also: readonly string[] = []) {
  const chosen = new Set([...ids.slice(0, 3), ...ids.slice(-3), ...also]);
  const rest = ids.filter((id) => !chosen.has(id));
  while (chosen.size < size && rest.length > 0) {
    const [id] = rest.splice(Math.floor(Math.random() * rest.length), 1);
    chosen.add(id!);
  }
  return [...chosen];
}
