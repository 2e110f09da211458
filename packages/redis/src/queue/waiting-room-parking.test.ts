import { randomUUID } from 'node:crypto';
import { type Job, Worker } from 'bullmq';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sampleAlert } from '../../test/helpers/alerts';
import { useScriptedRedis } from '../../test/helpers/scripted-redis';
import { waitFor } from '../../test/helpers/wait-for';
import { createRedisChannelStateStore } from '../stores/channel-state-store';
import { createInFlightSlots } from './in-flight';
import { type DeliveryJobData, deliveryJob } from './jobs';
import { queueKeys } from './keys';
import { parkAlert } from './parking';
import { releaseParkedAlerts } from './release';
import { openShardQueues } from './shard-queues';
import { createWaitingRoomParking } from './waiting-room-parking';

const own = useScriptedRedis();

const retention = { maxEntries: 100, maxAgeMs: 60_000 };
const schedule = { delaysMs: [0, 10], jitter: 0 };
const LEASE_MS = 60_000;

/**
 * A queue whose channel is disabled, with one job in the channel's waiting room whose delay has
 * run out (no worker fetched it yet), and another worker (fetching by hand) on the same queue.
 */
async function disabledChannelWithDueWaitingJob() {
  const queueName = `q${randomUUID()}`;
  const keys = queueKeys('park-room', queueName);
  const queues = openShardQueues(own.redis, 'park-room', queueName, 1, () => {});
  const store = createRedisChannelStateStore({ redis: own.redis, prefix: keys.channelStatePrefix });
  const channelId = `ch_${randomUUID()}`;
  await store.disable(channelId);
  const alert = sampleAlert();
  const { name, data, opts } = deliveryJob({ channelId, alert, priorAttempts: 0, schedule });
  const queue = queues.forChannel(channelId);
  const job = await queue.add(name, data, { ...opts, delay: 1 });
  await own.redis.zadd(keys.waitingRoom(channelId), job.timestamp, job.id ?? '');
  await waitFor('its delay to run out', () => Date.now() > job.timestamp + 1);
  const other = new Worker(queue.name, null, {
    connection: own.redis,
    prefix: queue.opts.prefix ?? '',
    lockDuration: LEASE_MS,
  });
  const slots = createInFlightSlots({ redis: own.redis, queues, keys, cap: 1, leaseMs: LEASE_MS });
  /** Every job of the queue that will still run, with its alert id. */
  const pendingJobs = async () => {
    const jobs = (await queue.getJobs(['wait', 'active', 'delayed', 'prioritized'])) as Job[];
    return jobs.map((pending) => (pending.data as DeliveryJobData).alert.id);
  };
  const parkJob = (parked: Job<DeliveryJobData>) =>
    parkAlert(
      own.redis,
      keys,
      {
        entryId: parked.id ?? '',
        channelId,
        alert: parked.data.alert,
        attempts: 0,
        reason: 'channel_disabled',
        parkedAt: Date.now(),
      },
      true,
    );
  const close = async () => {
    await other.close(true);
    await queues.close();
  };
  return { keys, queues, store, channelId, alert, job, other, slots, pendingJobs, parkJob, close };
}

describe("parking a disabled channel's waiting room", () => {
  it('delivers a job whose delay runs out while it is parked once, when the channel is re-enabled meanwhile', async () => {
    const bed = await disabledChannelWithDueWaitingJob();
    onTestFinished(bed.close);
    const { keys, queues, store, channelId, alert, slots } = bed;
    let fetched: Job | undefined;
    const parking = createWaitingRoomParking({
      queues,
      slots,
      holdMs: LEASE_MS,
      park: async (job) => {
        const parked = await bed.parkJob(job);
        // Meanwhile: another worker looks for work, and the owner re-enables the channel.
        fetched = await bed.other.getNextJob(randomUUID(), { block: false });
        await store.enable(channelId);
        await releaseParkedAlerts(own.redis, queues, keys, channelId, schedule, retention);
        return parked;
      },
    });
    await parking.parkWaitingRoom(channelId, null);

    expect(await bed.pendingJobs()).toEqual([alert.id]); // the released one, nothing else
    expect(fetched?.id).toBeUndefined();
    expect(await own.redis.zcard(keys.parked(channelId))).toBe(0);
  });

  it('leaves a job whose delay ran out and that a worker took to that worker, parking nothing', async () => {
    const bed = await disabledChannelWithDueWaitingJob();
    onTestFinished(bed.close);
    const { keys, queues, channelId, job, slots } = bed;
    const taken = await bed.other.getNextJob(randomUUID(), { block: false });
    expect(taken?.id).toBe(job.id);
    let parks = 0;
    const parking = createWaitingRoomParking({
      queues,
      slots,
      holdMs: LEASE_MS,
      park: (parked) => {
        parks++;
        return bed.parkJob(parked);
      },
    });
    await parking.parkWaitingRoom(channelId, null);

    // The worker that has it parks it itself (once: one 'parked' record, one observer event).
    expect(parks).toBe(0);
    expect(await own.redis.zcard(keys.parked(channelId))).toBe(0);
    expect(await job.getState()).toBe('active');
  });
});
