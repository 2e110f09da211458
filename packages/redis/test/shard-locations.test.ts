import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryQueue, deliveryQueueShards, isCspwatchRedisError } from '../src/queue';
import { sampleAlert } from './helpers/alerts';
import { type RedisServerHandle, startRedisServer } from './helpers/redis-server';

describe('deliveryQueueShards', () => {
  let server: RedisServerHandle;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('names the BullMQ queue of every shard, where the delivery queue put its jobs', async () => {
    const options = { connection: server.url, prefix: 'dash', shards: 3 };
    const queue = createDeliveryQueue(options);
    const redis = new Redis(server.url, { maxRetriesPerRequest: null });
    const opened = deliveryQueueShards(options).map(
      ({ name, prefix }) => new Queue(name, { connection: redis, prefix }),
    );
    try {
      for (let index = 0; index < 12; index++) {
        await queue.enqueue(`ch_${index}`, sampleAlert());
      }
      const counts = await Promise.all(opened.map((bull) => bull.getJobCountByTypes('waiting')));
      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(12);
      expect(counts.filter((count) => count > 0).length).toBeGreaterThan(1);
    } finally {
      await Promise.all(opened.map((bull) => bull.close()));
      await queue.close();
      redis.disconnect();
    }
  });

  it('uses the defaults and refuses what the queue refuses, naming the field', () => {
    expect(deliveryQueueShards({})).toEqual([
      { shard: 0, name: 'cspwatch-deliveries', prefix: expect.stringMatching(/^cspwatch:\{.+\}$/) },
    ]);
    let refused: unknown;
    try {
      deliveryQueueShards({ shards: 0, prefix: 'a b' });
    } catch (error) {
      refused = error;
    }
    expect(isCspwatchRedisError(refused) && refused.code).toBe('invalid_options');
    expect(String((refused as Error).message)).toMatch(
      /prefix: must be .*; shards: must be an integer from 1 to 256, got 0/,
    );
  });
});
