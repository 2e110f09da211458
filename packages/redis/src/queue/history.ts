/**
 * Delivery history: one Redis stream per channel, one entry per attempt and per parking event,
 * trimmed by count (`MAXLEN`) and age (`MINID`) on every write, read newest first by cursor.
 */

import { randomUUID } from 'node:crypto';
import type { DeliveryFailureCause } from '@cspwatch/webhook-sender';
import type { Redis } from 'ioredis';
import { CspwatchRedisError } from '../errors';
import type { ScriptedCommands, ScriptedRedis } from './scripts';

/** Why an alert was parked (held until its channel is re-enabled or the parked time runs out). */
export type ParkReason = 'channel_disabled' | 'retries_exhausted' | 'worker_error';

/** One delivery attempt that reached the network (or the target policy). */
export interface DeliveryAttemptEntry {
  /** Entry id; also the cursor of the next page. */
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
  /** Why it failed, or `null`. */
  readonly cause: DeliveryFailureCause | null;
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
  /** Entry id; also the cursor of the next page. */
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

/**
 * The arguments every history append script takes after its entry: a once-key for the stream
 * `key` (a script re-sent after a reconnect appends nothing twice), then the retention.
 */
export function appendOnceArgs(key: string, retention: HistoryRetention) {
  return {
    onceKey: `${key}:once:${randomUUID()}`,
    retention: [
      String(retention.maxEntries),
      String(Date.now() - retention.maxAgeMs),
      String(retention.maxAgeMs),
    ] as const,
  };
}

/** Appends `entry` once and applies retention; on a client, or queued on a MULTI. */
export function appendHistory<T extends ScriptedRedis | ScriptedCommands>(
  target: T,
  key: string,
  entry: NewHistoryEntry,
  retention: HistoryRetention,
): ReturnType<T['cspwatchAppendHistory']> {
  const once = appendOnceArgs(key, retention);
  return target.cspwatchAppendHistory(
    key,
    once.onceKey,
    JSON.stringify(entry),
    ...once.retention,
  ) as ReturnType<T['cspwatchAppendHistory']>;
}

const CURSOR = /^\d{1,20}-\d{1,20}$/;

/** Reads one page, newest first; entries past `maxAgeMs` but not yet trimmed are left out. */
export async function readHistory(
  redis: Redis,
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

/** Replaces every occurrence of `secret` in `text` (a receiver may echo it back). */
export function redactSecret(text: string | null, secret: string): string | null {
  return text === null || secret === '' ? text : text.split(secret).join('[redacted]');
}
