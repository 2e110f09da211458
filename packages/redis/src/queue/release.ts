/**
 * Releasing parked alerts: put them back in the queue (new jobs, a fresh schedule, the same
 * payload `id`), then remove them from the parked set and record it. A crash between the two
 * steps can release an alert twice, never lose it.
 */
import type { Queue } from 'bullmq';
import { type HistoryRetention, queueHistory } from './history';
import { addDeliveryJobs, deliveryJob } from './jobs';
import type { QueueKeys } from './keys';
import { readParked, takeExpired, unpark } from './parking';
import type { RetrySchedule } from './retry-schedule';
import { multi, type ScriptedRedis } from './scripts';

const BATCH = 500;

/** Releases every parked alert of a channel; resolves with how many. */
export async function releaseParkedAlerts(
  redis: ScriptedRedis,
  queue: Queue,
  keys: QueueKeys,
  channelId: string,
  schedule: RetrySchedule,
  retention: HistoryRetention,
): Promise<number> {
  let released = 0;
  for (;;) {
    const batch = await readParked(redis, keys, channelId, BATCH);
    if (batch.length === 0) return released;
    await addDeliveryJobs(
      queue,
      batch.map((parked) =>
        deliveryJob({ channelId, alert: parked.alert, priorAttempts: parked.attempts, schedule }),
      ),
    );
    const commands = unpark(
      redis,
      keys,
      channelId,
      batch.map((parked) => parked.entryId),
    );
    const at = new Date().toISOString();
    for (const parked of batch) {
      queueHistory(
        commands,
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
      );
    }
    await commands.exec();
    released += batch.length;
  }
}

/** Expires every alert parked longer than `ttlMs`, recording each; resolves with how many. */
export async function expireParkedAlerts(
  redis: ScriptedRedis,
  keys: QueueKeys,
  ttlMs: number,
  retention: HistoryRetention,
): Promise<number> {
  let expired = 0;
  for (;;) {
    const batch = await takeExpired(redis, keys, Date.now() - ttlMs, BATCH);
    if (batch.length === 0) return expired;
    const commands = multi(redis);
    const at = new Date().toISOString();
    for (const parked of batch) {
      queueHistory(
        commands,
        keys,
        {
          kind: 'expired',
          alertId: parked.alert.id,
          channelId: parked.channelId,
          attempt: parked.attempts,
          at,
          reason: null,
        },
        retention,
      );
    }
    await commands.exec();
    expired += batch.length;
  }
}
