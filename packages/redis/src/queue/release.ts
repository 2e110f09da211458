/**
 * Releasing parked alerts: put them back in the queue (new jobs, a fresh schedule, the same
 * payload `id`), then remove them from the parked set and record it. A crash between the two
 * steps can release an alert twice, never lose it.
 */
import { appendHistory, type HistoryRetention } from './history';
import { type DeliveryJobTarget, deliveryJob } from './jobs';
import type { QueueKeys } from './keys';
import { channelsParkedBefore, readParked, reindexChannel, takeExpired, unpark } from './parking';
import type { RetrySchedule } from './retry-schedule';
import type { ScriptedRedis } from './scripts';

const BATCH = 500;

/** Releases every parked alert of a channel; resolves with how many. */
export async function releaseParkedAlerts(
  redis: ScriptedRedis,
  target: DeliveryJobTarget,
  keys: QueueKeys,
  channelId: string,
  schedule: RetrySchedule,
  retention: HistoryRetention,
): Promise<number> {
  let released = 0;
  for (;;) {
    const batch = await readParked(redis, keys, channelId, BATCH);
    if (batch.length === 0) break;
    await target.add(
      channelId,
      batch.map((parked) =>
        deliveryJob({ channelId, alert: parked.alert, priorAttempts: parked.attempts, schedule }),
      ),
    );
    await unpark(
      redis,
      keys,
      channelId,
      batch.map((parked) => parked.entryId),
    );
    const at = new Date().toISOString();
    await Promise.all(
      batch.map((parked) =>
        appendHistory(
          redis,
          keys,
          {
            kind: 'released',
            alertId: parked.alert.id,
            channelId,
            attempt: parked.attempts,
            at,
            reason: null,
          },
          retention,
        ),
      ),
    );
    released += batch.length;
  }
  await reindexChannel(redis, keys, channelId);
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
        const at = new Date().toISOString();
        await Promise.all(
          batch.map((parked) =>
            appendHistory(
              redis,
              keys,
              {
                kind: 'expired',
                alertId: parked.alert.id,
                channelId,
                attempt: parked.attempts,
                at,
                reason: null,
              },
              retention,
            ),
          ),
        );
        expired += batch.length;
        if (batch.length < BATCH) break;
      }
      await reindexChannel(redis, keys, channelId);
    }
  }
}
