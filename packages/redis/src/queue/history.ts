/**
 * Delivery history, kept twice: one Redis stream per channel (one entry per attempt and per
 * parking event, trimmed to about `maxEntries` and by age, read newest first by cursor), and one
 * log per alert (a string of one line per entry, every channel's, kept `maxAgeMs` after its
 * newest one), so one alert's attempts are one read and a busy channel's count bound never
 * drops them.
 */

import { randomUUID } from 'node:crypto';
import type { DeliveryFailureCause } from '@cspwatch/webhook-sender';
import { CspwatchRedisError } from '../errors';
import { createExpiryRefresh, type ExpiryRefresh } from './expiry-refresh';
import type { QueueKeys } from './keys';
import type { QueueClient, ScriptedRedis } from './scripts';

/**
 * A channel that cannot be delivered to as configured: `invalid_channel` (its URL or secret is
 * unusable; `error` says which) or `channel_lookup_failed` (the `channels` lookup threw).
 * Recorded on the attempt, never counted as the receiver's failure.
 */
export type ChannelProblem = 'invalid_channel' | 'channel_lookup_failed';

/**
 * Why an alert was parked (held until its channel is re-enabled or released, or the parked time
 * runs out): its channel is disabled, its attempts ran out, BullMQ gave up on the job (its
 * workers died under it more than `maxStalledCount` times, or the worker failed on it), or
 * the channel's configuration is unusable (fix it, then `releaseParked`).
 */
export type ParkReason = 'channel_disabled' | 'retries_exhausted' | 'worker_error' | ChannelProblem;

/** One delivery attempt: sent (or refused by the target policy), or stopped by the channel's configuration. */
export interface DeliveryAttemptEntry {
  /** Entry id: in a channel's history also the cursor of the next page. */
  readonly id: string;
  /** Always `'attempt'`. */
  readonly kind: 'attempt';
  /** The alert's payload `id` (the same on every attempt). */
  readonly alertId: string;
  /** The channel delivered to. */
  readonly channelId: string;
  /** 1 for the first attempt of the alert, counting across parking and release. */
  readonly attempt: number;
  /** When the attempt started (ISO 8601). */
  readonly at: string;
  /** How long it took, ms. */
  readonly durationMs: number;
  /** `true` when the endpoint answered 2xx. */
  readonly ok: boolean;
  /** HTTP status, or `null` when no answer arrived. */
  readonly status: number | null;
  /** Why it failed, or `null`; a {@link ChannelProblem} is the channel's configuration, not counted. */
  readonly cause: DeliveryFailureCause | ChannelProblem | null;
  /** `location` of a redirect answer (never followed). */
  readonly location: string | null;
  /** A short description of a network error, timeout or refusal (secret redacted). */
  readonly error: string | null;
  /** The start of the response body (secret redacted). */
  readonly responseExcerpt: string | null;
  /** The channel's consecutive failures after this attempt. */
  readonly consecutiveFailures: number;
  /** `true` for the one attempt whose failure disabled the channel. */
  readonly disabledNow: boolean;
}

/** Something that happened to an alert besides an attempt. */
export interface DeliveryEventEntry {
  /** Entry id: in a channel's history also the cursor of the next page. */
  readonly id: string;
  /**
   * `parked`: held (see `reason`); `released`: back in the queue; `expired`: parked longer than
   * `parkedTtlMs`, dropped; `discarded`: its channel no longer exists.
   */
  readonly kind: 'parked' | 'released' | 'expired' | 'discarded';
  /** The alert's payload `id`. */
  readonly alertId: string;
  /** The channel. */
  readonly channelId: string;
  /** Attempts made so far. */
  readonly attempt: number;
  /** When it happened (ISO 8601). */
  readonly at: string;
  /** Why it was parked (`parked` only), else `null`. */
  readonly reason: ParkReason | null;
}

/** One history entry. Switch on `kind`. */
export type DeliveryHistoryEntry = DeliveryAttemptEntry | DeliveryEventEntry;

/** One page of history, newest first. */
export interface DeliveryHistoryPage {
  /** Entries, newest first. */
  readonly entries: readonly DeliveryHistoryEntry[];
  /** Pass as `cursor` to read the next (older) page; `null` on the last page. */
  readonly nextCursor: string | null;
}

/** Options of `getHistory`. */
export interface HistoryPageOptions {
  /** Entries per page, 1 to 1000. @default 50 */
  readonly limit?: number;
  /** `nextCursor` of the previous page. */
  readonly cursor?: string | null;
}

/** Retention of the history. */
export interface HistoryRetention {
  readonly maxEntries: number;
  readonly maxAgeMs: number;
}

/** An entry before Redis gave it an id. */
export type NewHistoryEntry = Omit<DeliveryAttemptEntry, 'id'> | Omit<DeliveryEventEntry, 'id'>;

/** Each retention's stream expiry refresher (one per worker or queue, which each hold one retention). */
const streamExpiries = new WeakMap<HistoryRetention, ExpiryRefresh>();

/**
 * Retention arguments of an append to `stream`: max entries, min id ('' = no age trim this
 * time), the expiry to refresh ('' = not this time), the expiry of a new stream.
 */
function retentionArgs(retention: HistoryRetention, stream: string, now: number): string[] {
  let expiry = streamExpiries.get(retention);
  if (!expiry) {
    expiry = createExpiryRefresh(retention.maxAgeMs);
    streamExpiries.set(retention, expiry);
  }
  // Reads skip entries past the age anyway, so trimming by age on one append in 16 is enough.
  const trim = Math.random() < 1 / 16 ? String(now - retention.maxAgeMs) : '';
  return [String(retention.maxEntries), trim, expiry.due(stream, now), expiry.ttl];
}

/** The stream arguments and the alert log's entry id of `entry` (written now). */
export function entryParts(
  keys: QueueKeys,
  entry: Pick<NewHistoryEntry, 'channelId' | 'alertId'>,
  retention: HistoryRetention,
) {
  const stream = keys.history(entry.channelId);
  const now = Date.now();
  return {
    stream,
    /** Max entries, min id, expiry to refresh, expiry of a new stream (see scripts.ts). */
    retentionArgs: retentionArgs(retention, stream, now),
    alert: keys.alertHistory(entry.alertId),
    /** The entry's id in the alert's log (its time first, so the log sorts by it). */
    alertEntryId: `${now}-${randomUUID().slice(0, 8)}`,
  };
}

/** Records `entry` in its channel's history and its alert's log, on a client. */
export async function appendHistory(
  redis: ScriptedRedis,
  keys: QueueKeys,
  entry: NewHistoryEntry,
  retention: HistoryRetention,
): Promise<void> {
  const parts = entryParts(keys, entry, retention);
  const json = JSON.stringify(entry);
  await Promise.all([
    redis.cspwatchAppendHistory(parts.stream, onceKey(parts.stream), json, ...parts.retentionArgs),
    redis.cspwatchAppendAlert(parts.alert, parts.alertEntryId, json, String(retention.maxAgeMs)),
  ]);
}

/** A key unique to one append to `stream`, in its cluster slot (see scripts.ts). */
export const onceKey = (stream: string) => `${stream}:once:${randomUUID()}`;

const CURSOR = /^\d{1,20}-\d{1,20}$/;

/** Reads one page, newest first; entries past `maxAgeMs` but not yet trimmed are left out. */
export async function readHistory(
  redis: QueueClient,
  key: string,
  options: HistoryPageOptions,
  retention: HistoryRetention,
): Promise<DeliveryHistoryPage> {
  const { limit = 50, cursor = null } = options ?? {};
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) {
    throw new CspwatchRedisError(
      'invalid_input',
      'history limit must be an integer from 1 to 1000',
    );
  }
  if (cursor !== null && (typeof cursor !== 'string' || !CURSOR.test(cursor))) {
    throw new CspwatchRedisError(
      'invalid_input',
      'history cursor must be a nextCursor from a previous page',
    );
  }
  const end = `${Date.now() - retention.maxAgeMs}`;
  const rows = await redis.xrevrange(
    key,
    cursor === null ? '+' : `(${cursor}`,
    end,
    'COUNT',
    limit + 1,
  );
  const entries = rows.slice(0, limit).map(([id, fields]) => ({
    id,
    ...(JSON.parse(fields[1] ?? '{}') as NewHistoryEntry),
  })) as DeliveryHistoryEntry[];
  const last = entries.at(-1);
  return { entries, nextCursor: rows.length > limit && last ? last.id : null };
}

/** Reads every entry of one alert (all channels), oldest first, within `maxAgeMs`. */
export async function readAlertHistory(
  redis: QueueClient,
  keys: QueueKeys,
  alertId: string,
  retention: HistoryRetention,
): Promise<DeliveryHistoryEntry[]> {
  const log = (await redis.get(keys.alertHistory(alertId))) ?? '';
  const since = Date.now() - retention.maxAgeMs;
  return log
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const space = line.indexOf(' ');
      const id = line.slice(0, space);
      return { id, ms: Number.parseInt(id, 10), entry: JSON.parse(line.slice(space + 1)) };
    })
    .filter(({ ms }) => ms >= since)
    .sort((a, b) => a.ms - b.ms || a.entry.attempt - b.entry.attempt)
    .map(({ id, entry }) => ({ id, ...entry }) as DeliveryHistoryEntry);
}

/** Replaces every occurrence of `secret` in `text` (a receiver may echo it back). */
export function redactSecret(text: string | null, secret: string): string | null {
  return text === null || secret === '' ? text : text.split(secret).join('[redacted]');
}
