/**
 * The stores and the delivery queue on a real Redis Cluster (3 masters, 3 replicas, started by
 * the test setup): keys hash as Redis hashes them, shards land on different masters, the queue
 * delivers across shards, a SIGKILLed master loses no alert acknowledged as `replicated`, the
 * channel state disables exactly once and the replay store refuses a replay across the
 * failover, and a cluster with uncovered slots fails `enqueue` fast with `redis_unavailable`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRedisChannelStateStore, createRedisReplayStore } from '@cspwatch/redis';
import {
  createDeliveryQueue,
  createDeliveryWorker,
  type DeliveryQueue,
  type DeliveryWorker,
  type Durability,
  isCspwatchRedisError,
} from '@cspwatch/redis/queue';
import type { DeliveryChannel } from '@cspwatch/webhook-sender';
import fc from 'fast-check';
import { Cluster } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';
import { shardOf, shardTag } from '../src/queue/shards';
import { keySlot } from '../src/stores/key-slot';
import { sampleAlert } from './helpers/alerts';
import { type RedisClusterHandle, startRedisCluster } from './helpers/redis-cluster';
import { waitFor } from './helpers/wait-for';

const SECRET = 'whsec_cluster-secret-0123456789';
let cluster: RedisClusterHandle;
const clients: Cluster[] = [];
const open: { close(): Promise<void> }[] = [];
let run = 0;

/** A cluster client as an app would configure one: it follows failovers on its own. */
function connect(): Cluster {
  const client = new Cluster(cluster.startupNodes, {
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    redisOptions: { connectTimeout: 1000 },
  });
  client.on('error', () => {}); // the killed master's connection errors; outcomes are asserted
  client.on('node error', () => {});
  clients.push(client);
  return client;
}

/** A receiver on loopback that records each alert id it was sent (200 to everything). */
async function startCountingReceiver() {
  const received = new Map<string, number>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
      received.set(id, (received.get(id) ?? 0) + 1);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    channels: (count: number): DeliveryChannel[] =>
      Array.from({ length: count }, (_, i) => ({
        id: `wh_c${run}_${i}`,
        url: `http://127.0.0.1:${port}/${i}`,
        secret: SECRET,
      })),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The master port that serves `slot` now. */
async function masterOf(slot: number): Promise<number> {
  const nodes = await cluster.nodes();
  const master = nodes.find(
    (node) =>
      node.alive &&
      node.role === 'master' &&
      node.slots.some(([first, last]) => slot >= first && slot <= last),
  );
  if (!master) throw new Error(`no live master serves slot ${slot}`);
  return master.port;
}

beforeAll(async () => {
  cluster = await startRedisCluster();
}, budget(60_000));
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});
afterAll(async () => {
  for (const client of clients) client.disconnect();
  await cluster?.stop();
});

describe('keys on a cluster', () => {
  it('hashes every key as CLUSTER KEYSLOT does, hash tags included (property)', async () => {
    const client = connect();
    const key = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.tuple(fc.string(), fc.string(), fc.string()).map(([a, b, c]) => `${a}{${b}}${c}`),
    );
    await fc.assert(
      fc.asyncProperty(key, async (k) => {
        const nodes = client.nodes('master');
        expect(keySlot(k)).toBe(await nodes[0]!.cluster('KEYSLOT', k));
      }),
      { numRuns: 300 },
    );
  });

  it('puts 3 shards on 3 different masters, and 6 shards two on each', async () => {
    for (const count of [3, 6]) {
      const masters = await Promise.all(
        Array.from({ length: count }, (_, i) => masterOf(keySlot(`{${shardTag(i, count)}}`))),
      );
      const perMaster = new Map<number, number>();
      for (const port of masters) perMaster.set(port, (perMaster.get(port) ?? 0) + 1);
      expect([...perMaster.values()]).toEqual(Array(3).fill(count / 3));
    }
  });
});

describe('the stores on a cluster', () => {
  it('counts, disables once and re-enables a channel, and claims a replay once, with replicated writes', async () => {
    const redis = connect();
    const store = createRedisChannelStateStore({ redis, durability: 'replicated' });
    const channel = `wh_store_${++run}`;
    const replies = [];
    for (let i = 0; i < 6; i++) {
      replies.push(await store.recordAttempt(channel, { ok: false, failuresToDisable: 5 }));
    }
    expect(replies.map((reply) => reply.disabledNow)).toEqual([
      false,
      false,
      false,
      false,
      true,
      false,
    ]);
    await store.enable(channel);
    expect(await store.get(channel)).toEqual({ consecutiveFailures: 0, disabled: false });
    const replay = createRedisReplayStore({ redis, durability: 'replicated' });
    expect(await replay.claim(`sig-${run}`, 60_000)).toBe(true);
    expect(await replay.claim(`sig-${run}`, 60_000)).toBe(false);
  });

  it('refuses a client it cannot use, saying what it needs', () => {
    expect(() => createRedisChannelStateStore({ redis: {} as Cluster })).toThrow(
      /ioredis client \(new Redis\(url\) or new Cluster\(nodes\)\)/,
    );
    expect(() => createDeliveryQueue({ connection: connect() as never, queueName: 'x' })).toThrow(
      /not be a client/,
    );
    expect(() => createDeliveryQueue({ connection: { cluster: [] } })).toThrow(
      /connection\.cluster: must list the cluster's seed nodes/,
    );
  });
});

/** A producer and workers on the cluster, spread over 3 shards. */
function queueOnCluster(durability: Durability, workers = 2) {
  const base = {
    connection: { cluster: cluster.startupNodes, clusterOptions: { retryDelayOnFailover: 100 } },
    queueName: `cq${++run}`,
    shards: 3,
  };
  const queue = createDeliveryQueue({ ...base, durability, commandTimeoutMs: 3_000 });
  return {
    base,
    queue,
    startWorkers(channels: DeliveryChannel[]): DeliveryWorker[] {
      const byId = new Map(channels.map((channel) => [channel.id, channel]));
      return Array.from({ length: workers }, () => {
        const worker = createDeliveryWorker({
          ...base,
          channels: (id) => byId.get(id),
          concurrency: 24,
          lockDurationMs: 5_000,
          stalledIntervalMs: 1_000,
          sender: { dangerouslyAllowLoopback: true, timeoutMs: 5_000 },
        });
        open.push(worker);
        return worker;
      });
    },
  };
}

const drained = async (queue: DeliveryQueue) => {
  const counts = await queue.getCounts();
  return counts.waiting + counts.active + counts.delayed === 0;
};

/** Enqueues until Redis acknowledges it (the same alert again is the same job). */
async function enqueueUntilAcknowledged(queue: DeliveryQueue, channelId: string, alert: object) {
  const deadline = Date.now() + budget(60_000);
  for (let tries = 1; ; tries++) {
    try {
      await queue.enqueue(channelId, alert as never);
      return tries;
    } catch (error) {
      const retry =
        isCspwatchRedisError(error) &&
        (error.code === 'redis_unavailable' || error.code === 'not_replicated');
      if (!retry || Date.now() > deadline) throw error;
    }
  }
}

describe('the delivery queue on a cluster', () => {
  it('delivers every alert once across 3 shards, with history and counts', async () => {
    const receiver = await startCountingReceiver();
    open.push(receiver);
    const { queue, startWorkers } = queueOnCluster('primary');
    open.push(queue);
    const channels = receiver.channels(20);
    startWorkers(channels);
    const alerts = Array.from({ length: 400 }, (_, i) => ({
      channel: channels[i % channels.length]!,
      alert: sampleAlert(),
    }));
    await Promise.all(alerts.map(({ channel, alert }) => queue.enqueue(channel.id, alert)));
    await waitFor('every alert delivered', () => receiver.received.size === alerts.length, 60_000);
    await waitFor('the queue to drain', () => drained(queue));
    expect([...receiver.received.values()].every((count) => count === 1)).toBe(true);
    const sample = alerts[7]!;
    expect(await queue.getAlertHistory(sample.alert.id)).toMatchObject([
      { kind: 'attempt', ok: true, channelId: sample.channel.id },
    ]);
    expect(await queue.getCounts()).toMatchObject({ failed: 0, parked: 0 });
  });

  it.each<[Durability, number]>([
    ['replicated', 3_000],
    ['primary', 3_000],
  ])(
    'with durability %s, counts the acknowledged alerts lost when a master is SIGKILLed mid-run',
    async (durability, total) => {
      const receiver = await startCountingReceiver();
      open.push(receiver);
      const { queue, startWorkers } = queueOnCluster(durability);
      open.push(queue);
      const channels = receiver.channels(20);
      startWorkers(channels);
      const acknowledged: string[] = [];
      let retried = 0;
      const producer = async (offset: number) => {
        for (let i = offset; i < total; i += 10) {
          const alert = sampleAlert();
          retried += (await enqueueUntilAcknowledged(queue, channels[i % 20]!.id, alert)) - 1;
          acknowledged.push(alert.id);
        }
      };
      const producing = Promise.all(Array.from({ length: 10 }, (_, p) => producer(p)));
      await waitFor('a third acknowledged', () => acknowledged.length >= total / 3, 60_000);
      const failover = await cluster.killMaster({ slot: keySlot(`{${shardTag(0, 3)}}`) });
      // The promoted replica has no replica of its own until the old master rejoins as one:
      // till then `replicated` cannot be acknowledged on that shard (not_replicated, retried).
      await cluster.restartNode(failover.killedPort);
      await producing;
      const delivered = () => acknowledged.filter((id) => receiver.received.has(id)).length;
      // Every acknowledged alert is delivered, or (primary only) its job is gone with the master.
      await waitFor(
        'the queue to drain',
        async () => (await drained(queue)) && delivered() > 0,
        90_000,
      );
      await waitFor(
        'the deliveries in flight to land',
        async () => (await drained(queue)) && delivered() === acknowledged.length,
        durability === 'replicated' ? 60_000 : 5_000,
      ).catch(() => {});
      const lost = acknowledged.length - delivered();
      console.info(
        `cluster failover, durability ${durability}: ${acknowledged.length} acknowledged, ${lost} lost, ${retried} enqueue retries, failover ${failover.failoverMs} ms`,
      );
      expect(acknowledged).toHaveLength(total);
      if (durability === 'replicated') expect(lost).toBe(0);
      else expect(lost).toBeGreaterThanOrEqual(0); // measured, reported in the guide
    },
    240_000,
  );
});

describe('the stores across a failover', () => {
  it(
    'disables a channel exactly once when its master fails over mid-count (replicated), and refuses a replay claimed before it',
    async () => {
      const channel = `wh_fail_${++run}`;
      const slot = keySlot(`{${channel}}`);
      const replayKey = `sig-failover-${run}`;
      const writer = connect();
      const replay = createRedisReplayStore({ redis: writer, durability: 'replicated' });
      expect(await replay.claim(replayKey, 120_000)).toBe(true);
      const stores = Array.from({ length: 4 }, () =>
        createRedisChannelStateStore({ redis: connect(), durability: 'replicated' }),
      );
      const disabledNow: number[] = [];
      let failures = 0;
      let stop = false;
      const failing = stores.map(async (store, client) => {
        while (!stop) {
          try {
            const reply = await store.recordAttempt(channel, { ok: false, failuresToDisable: 40 });
            failures++;
            if (reply.disabledNow) disabledNow.push(client);
          } catch {
            // redis_unavailable while the slot has no master: the sender would retry the attempt
          }
        }
      });
      await waitFor('a few failures counted', () => failures >= 10);
      await cluster.killMaster({ port: await masterOf(slot) });
      await waitFor('the channel disabled', async () => (await stores[0]!.get(channel)).disabled);
      await waitFor('more failures after the disable', () => failures >= 80, 30_000);
      stop = true;
      await Promise.all(failing);
      expect(disabledNow).toHaveLength(1);
      // On any receiver instance after the failover: the claim is still there.
      const other = createRedisReplayStore({ redis: connect() });
      expect(await other.claim(replayKey, 120_000)).toBe(false);
    },
    budget(120_000),
  );
});

describe('a cluster with slots no master serves', () => {
  it(
    'fails enqueue with redis_unavailable within commandTimeoutMs, never hangs',
    async () => {
      const { queue } = queueOnCluster('primary');
      open.push(queue);
      await queue.enqueue('wh_before', sampleAlert()); // connected and working
      // A master and its replica down: the cluster no longer covers every slot.
      const nodes = await cluster.nodes();
      const master = nodes.find((node) => node.alive && node.role === 'master')!;
      const replica = nodes.find((node) => node.alive && node.masterPort === master.port);
      if (replica) process.kill(replica.pid!, 'SIGKILL');
      process.kill(master.pid!, 'SIGKILL');
      const onDeadMaster = (slot: number) =>
        master.slots.some(([first, last]) => slot >= first && slot <= last);
      const onDownShard = Array.from({ length: 100 }, (_, i) => `wh_down_${i}`).find((id) =>
        onDeadMaster(keySlot(`{${shardTag(shardOf(id, 3), 3)}}`)),
      )!;
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const error = await queue.enqueue(onDownShard, sampleAlert()).catch((caught) => caught);
        const took = Date.now() - started;
        expect(isCspwatchRedisError(error) && error.code).toBe('redis_unavailable');
        expect(took).toBeLessThan(3_000 + 2_000);
      }
    },
    budget(60_000),
  );
});
