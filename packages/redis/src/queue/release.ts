/**
 * Releasing parked alerts: record it, put them back in the queue (new jobs, a fresh schedule,
 * the same payload `id`), then remove them from the parked set. Recorded first, so a released
 * alert's next attempt (which may run at once) always comes after it in its history. A crash
 * between the steps can release an alert twice (or record a release that a later one redoes),
 * never lose it. One release of a channel runs at a time (two at once would both put the same
 * alerts back): a release that finds another under way waits for it, then makes its own pass,
 * so that every alert parked before a call is back in the queue when the call resolves.
 */
import { randomUUID } from 'node:crypto';
import { appendHistory, type HistoryRetention } from './history';
import { type DeliveryJobTarget, deliveryJob } from './jobs';
import type { QueueKeys } from './keys';
import {
  channelsParkedBefore,
  type ParkedAlert,
  readParked,
  reindexChannel,
  takeExpired,
  unpark,
} from './parking';
import type { RetrySchedule } from './retry-schedule';
import type { ScriptedRedis } from './scripts';

const BATCH = 500;
/** How long a release holds its channel's lock past its last batch (a crashed one's runs out). */
const LOCK_MS = 60_000;
/** How often a release waiting for another one under way tries the lock again. */
const LOCK_RETRY_MS = 25;

/** Records that each of `batch` was released or expired. */
async function recordEach(
  redis: ScriptedRedis,
  keys: QueueKeys,
  kind: 'released' | 'expired',
  batch: readonly ParkedAlert[],
  retention: HistoryRetention,
): Promise<void> {
  const at = new Date().toISOString();
  await Promise.all(
    batch.map(({ alert, channelId, attempts }) =>
      appendHistory(
        redis,
        keys,
        { kind, alertId: alert.id, channelId, attempt: attempts, at, reason: null },
        retention,
      ),
    ),
  );
}

/**
 * Releases every parked alert of a channel; resolves with how many. A release of the channel
 * already under way (in any process) is waited for first, and what it released is not counted.
 */
export async function releaseParkedAlerts(
  redis: ScriptedRedis,
  target: DeliveryJobTarget,
  keys: QueueKeys,
  channelId: string,
  schedule: RetrySchedule,
  retention: HistoryRetention,
): Promise<number> {
  const lock = keys.releasing(channelId);
  const token = randomUUID();
  while ((await redis.set(lock, token, 'PX', LOCK_MS, 'NX')) === null) {
    await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
  }
  let released = 0;
  try {
    for (;;) {
      const batch = await readParked(redis, keys, channelId, BATCH);
      if (batch.length === 0) break;
      await recordEach(redis, keys, 'released', batch, retention);
      await target.add(
        channelId,
        batch.map(({ alert, attempts, traceContext }) =>
          deliveryJob({
            channelId,
            alert,
            priorAttempts: attempts,
            schedule,
            ...(traceContext ? { traceContext } : {}),
          }),
        ),
      );
      await unpark(
        redis,
        keys,
        channelId,
        batch.map((parked) => parked.entryId),
      );
      released += batch.length;
      await redis.pexpire(lock, LOCK_MS);
    }
    await reindexChannel(redis, keys, channelId);
  } finally {
    if ((await redis.get(lock)) === token) await redis.del(lock);
  }
  return released;
}

/** Expires every alert parked longer than `ttlMs`, recording each; resolves with how many. */
export async function expireParkedAlerts(
  redis: ScriptedRedis,
  keys: QueueKeys,
  ttlMs: number,
  retention: HistoryRetention,
): Promise<number> {
  let expired = 0;
  const cutoff = Date.now() - ttlMs;
  for (;;) {
    const channels = await channelsParkedBefore(redis, keys, cutoff, BATCH);
    if (channels.length === 0) return expired;
    for (const channelId of channels) {
      for (;;) {
        const batch = await takeExpired(redis, keys, channelId, cutoff, BATCH);
        await recordEach(redis, keys, 'expired', batch, retention);
        expired += batch.length;
        if (batch.length < BATCH) break;
      }
      await reindexChannel(redis, keys, channelId);
    }
  }
}
