import { randomUUID } from 'node:crypto';
import { createWebhookSender } from '@cspwatch/webhook-sender';
import type { Job } from 'bullmq';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sampleAlert } from '../../test/helpers/alerts';
import { useScriptedRedis } from '../../test/helpers/scripted-redis';
import { createRedisChannelStateStore } from '../stores/channel-state-store';
import { readAlertHistory } from './history';
import { createInFlightSlots } from './in-flight';
import { type DeliveryJobData, deliveryJob } from './jobs';
import { queueKeys } from './keys';
import type { DeliveryOutcomeEvent } from './observer';
import { createJobProcessor } from './process-job';
import { openShardQueues } from './shard-queues';
import { createStateHandOff } from './state-hand-off';

const own = useScriptedRedis();

const retention = { maxEntries: 100, maxAgeMs: 60_000 };
const schedule = { delaysMs: [0], jitter: 0 };

/** A worker's job processor on real parts, on a queue of its own, with what it told. */
function processorOnOwnQueue() {
  const queueName = `q${randomUUID()}`;
  const keys = queueKeys('process-job', queueName);
  const queues = openShardQueues(own.redis, 'process-job', queueName, 1, () => {});
  const store = createRedisChannelStateStore({ redis: own.redis, prefix: keys.channelStatePrefix });
  const handOff = createStateHandOff(store);
  const sender = createWebhookSender({ store: handOff.store });
  const events: DeliveryOutcomeEvent[] = [];
  const processor = createJobProcessor({
    redis: own.redis,
    queues,
    keys,
    retention,
    sender,
    store,
    channels: () => undefined,
    slots: createInFlightSlots({ redis: own.redis, queues, keys, cap: 1, leaseMs: 60_000 }),
    hand: handOff.hand,
    report: () => {},
    closing: () => false,
    holdMs: 60_000,
    observer: (event) => events.push(event),
  });
  onTestFinished(async () => {
    await queues.close();
    await sender.close();
  });
  return { keys, queues, processor, events };
}

describe('parking a job BullMQ failed for good', () => {
  it("records it once when the worker's 'failed' event and a sweep park it at the same time", async () => {
    const { keys, queues, processor, events } = processorOnOwnQueue();
    const channelId = `ch_${randomUUID()}`;
    const alert = sampleAlert();
    const { name, data, opts } = deliveryJob({ channelId, alert, priorAttempts: 0, schedule });
    const added = (await queues
      .forChannel(channelId)
      .add(name, data, opts)) as Job<DeliveryJobData>;
    const again = (await queues
      .forChannel(channelId)
      .getJob(added.id ?? '')) as Job<DeliveryJobData>;

    await Promise.all([processor.parkFailedJob(added), processor.parkFailedJob(again)]);

    expect(await own.redis.zcard(keys.parked(channelId))).toBe(1);
    const history = await readAlertHistory(own.redis, keys, alert.id, retention);
    expect(history).toMatchObject([{ kind: 'parked', reason: 'worker_error' }]);
    expect(events).toEqual([{ outcome: 'parked', channelId, reason: 'worker_error' }]);
  });

  it('does not park it again for a sweep that read it before it was parked, released and its claim ran out', async () => {
    const { keys, queues, processor } = processorOnOwnQueue();
    const channelId = `ch_${randomUUID()}`;
    const alert = sampleAlert();
    const { name, data, opts } = deliveryJob({ channelId, alert, priorAttempts: 0, schedule });
    const stale = (await queues
      .forChannel(channelId)
      .add(name, data, opts)) as Job<DeliveryJobData>;
    await processor.parkFailedJob(stale); // parked, and the job removed
    expect(await own.redis.zcard(keys.parked(channelId))).toBe(1);
    // Released meanwhile, and the parker's claim has run out.
    await own.redis.del(keys.parked(channelId), keys.parkingClaim(channelId, stale.id ?? ''));

    await processor.parkFailedJob(stale);

    expect(await own.redis.zcard(keys.parked(channelId))).toBe(0);
    const history = await readAlertHistory(own.redis, keys, alert.id, retention);
    expect(history).toMatchObject([{ kind: 'parked', reason: 'worker_error' }]);
  });
});
