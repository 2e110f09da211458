/**
 * The Redis replay store through `@cspwatch/webhooks`' replay guard: receivers behind a load
 * balancer (one guard and one Redis connection each) accept a delivery once, whichever
 * instance gets it, and refuse it rather than accept it unchecked when Redis is down.
 */
import { createRedisReplayStore } from '@cspwatch/redis';
import { createReplayGuard, isWebhookVerificationError, verifyWebhook } from '@cspwatch/webhooks';
import { signWebhookSync } from '@cspwatch/webhooks/node';
import { createSampleAlert } from '@cspwatch/webhooks/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServerHandle, startRedisServer } from './helpers/redis-server';
import { waitFor } from './helpers/wait-for';

const SECRET = 'whsec_receiver-secret-0123456789';
let server: RedisServerHandle;
const clients: Redis[] = [];

beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  for (const client of clients) client.disconnect();
  await server.stop();
});

/** One receiver instance: its own Redis connection, store and guard. */
async function receiverInstance(key: 'signature' | 'id', url = server.url) {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    commandTimeout: 1000,
  });
  redis.on('error', () => {});
  clients.push(redis);
  await waitFor('the connection', () => redis.status === 'ready', 10_000);
  const guard = createReplayGuard({ store: createRedisReplayStore({ redis }), key });
  return async (body: string, headers: Record<string, string>) => {
    const event = await verifyWebhook({ body, headers, secret: SECRET });
    return guard.claim(event, headers);
  };
}

function signedDelivery(alert = createSampleAlert(), timestamp = Date.now()) {
  const body = JSON.stringify(alert);
  return {
    body,
    headers: signWebhookSync({ body, secret: SECRET, timestamp }) as Record<string, string>,
  };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: unknown) => (isWebhookVerificationError(error) ? error.code : String(error)),
  );

describe('Redis replay store behind a load balancer', () => {
  it('accepts a signed delivery once, whichever of three instances gets it', async () => {
    const instances = await Promise.all([1, 2, 3].map(() => receiverInstance('signature')));
    const { body, headers } = signedDelivery();
    const answers = await Promise.all(instances.map((receive) => codeOf(receive(body, headers))));
    expect(answers.sort()).toEqual(['accepted', 'replayed_delivery', 'replayed_delivery']);
  });

  it("accepts the sender's re-signed retry with key 'signature', refuses it with key 'id', and accepts it after release", async () => {
    const [a, b] = await Promise.all([receiverInstance('id'), receiverInstance('id')]);
    const alert = createSampleAlert();
    const first = signedDelivery(alert);
    const claim = await a(first.body, first.headers);
    const retry = signedDelivery(alert);
    expect(await codeOf(b(retry.body, retry.headers))).toBe('replayed_delivery');
    await claim.release(); // the handler failed: the retry must get through
    expect(await codeOf(b(retry.body, retry.headers))).toBe('accepted');

    const [c, d] = await Promise.all([
      receiverInstance('signature'),
      receiverInstance('signature'),
    ]);
    const again = signedDelivery(alert);
    await c(again.body, again.headers);
    const resigned = signedDelivery(alert, Date.now() + 1000); // the next attempt's fresh timestamp
    expect(resigned.headers).not.toEqual(again.headers);
    expect(await codeOf(d(resigned.body, resigned.headers))).toBe('accepted');
  });

  it('refuses (replay_store_unavailable) instead of accepting unchecked when Redis is down', async () => {
    const down = await startRedisServer();
    const receive = await receiverInstance('signature', down.url);
    await down.stop();
    const { body, headers } = signedDelivery();
    expect(await codeOf(receive(body, headers))).toBe('replay_store_unavailable');
  });
});
