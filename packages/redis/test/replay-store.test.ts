import { createRedisReplayStore, isCspwatchRedisError } from '@cspwatch/redis';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServerHandle, startRedisServer } from './helpers/redis-server';

let server: RedisServerHandle;
const clients: Redis[] = [];
const connect = () => {
  const client = new Redis(server.url);
  clients.push(client);
  return client;
};

beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  for (const client of clients) client.disconnect();
  await server.stop();
});

describe('createRedisReplayStore', () => {
  it('claims a key once, expires it after ttl and frees it on release', async () => {
    const redis = connect();
    const store = createRedisReplayStore({ redis, prefix: 'replay-test' });
    expect(await store.claim('sig-1', 60_000)).toBe(true);
    expect(await store.claim('sig-1', 60_000)).toBe(false);
    const ttl = await redis.pttl('replay-test:sig-1');
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await store.release('sig-1');
    expect(await store.claim('sig-1', 60_000)).toBe(true);
    expect(await store.claim('short', 50)).toBe(true);
    for (let i = 0; (await redis.exists('replay-test:short')) && i < 100; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await store.claim('short', 50)).toBe(true);
  });

  it('lets exactly one of many instances claim a key, whichever gets the delivery', async () => {
    const instances = Array.from({ length: 8 }, () => createRedisReplayStore({ redis: connect() }));
    for (let round = 0; round < 20; round++) {
      const key = `delivery-${round}`;
      const answers = await Promise.all(instances.map((store) => store.claim(key, 330_000)));
      expect(answers.filter(Boolean)).toHaveLength(1);
    }
  });

  it('throws redis_unavailable instead of answering when Redis is down', async () => {
    const down = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    clients.push(down);
    const store = createRedisReplayStore({ redis: down });
    const error = await Promise.resolve()
      .then(() => store.claim('k', 1000))
      .catch((caught: unknown) => caught);
    expect(isCspwatchRedisError(error) && error.code).toBe('redis_unavailable');
  });

  it('refuses a bad key or ttl with invalid_input', async () => {
    const store = createRedisReplayStore({ redis: connect() });
    for (const [key, ttl] of [
      ['', 10],
      ['k', 0],
      ['k', -1],
      ['k', 1.5],
      ['k', Number.NaN],
    ] as const) {
      const error = await Promise.resolve()
        .then(() => store.claim(key, ttl))
        .catch((caught: unknown) => caught);
      expect(isCspwatchRedisError(error) && error.code).toBe('invalid_input');
    }
  });
});
