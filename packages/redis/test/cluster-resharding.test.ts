/**
 * The delivery queue on a real Redis Cluster (3 masters, 3 replicas) while one shard's slot is
 * resharded by hand, back and forth, as `redis-cli --cluster reshard` moves a slot: producers
 * enqueue alerts to that shard all along and meet the ASK / TRYAGAIN / MOVED storm. Every
 * `enqueue` resolves or is refused with `redis_unavailable` within `commandTimeoutMs`; every
 * acknowledged alert is one intact job, delivered once; a refused alert enqueued again is
 * accepted as the same job.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  createDeliveryQueue,
  createDeliveryWorker,
  type DeliveryQueue,
  isCspwatchRedisError,
} from '@cspwatch/redis/queue';
import type { DeliveryChannel } from '@cspwatch/webhook-sender';
import { Queue } from 'bullmq';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';
import { deliveryJobId } from '../src/queue/keys';
import { shardOf, shardPrefix, shardTag } from '../src/queue/shards';
import { keySlot } from '../src/stores/key-slot';
import { sampleAlert } from './helpers/alerts';
import { moveSlot, type SlotMove } from './helpers/cluster-reshard';
import { type RedisClusterHandle, startRedisCluster } from './helpers/redis-cluster';
import { waitFor } from './helpers/wait-for';

const SECRET = 'whsec_resharding-secret-0123456789';
const SHARDS = 3;
/** The shard whose slot is moved; every channel of the test is on it. */
const SHARD = 0;
const COMMAND_TIMEOUT_MS = 2_000;
/** Event-loop and scheduling slack over `commandTimeoutMs` before a call counts as hung. */
const MARGIN_MS = 1_000;
const TOTAL_ALERTS = 1_500;
const PRODUCERS = 12;
/** Moves of the slot: there and back, twice. */
const MOVES = 4;
/** Calls that must meet each open slot (started after its first keys moved) before it closes. */
const CALLS_PER_OPEN_SLOT = 12;

let cluster: RedisClusterHandle;
const open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  cluster = await startRedisCluster();
}, budget(30_000));
afterAll(async () => {
  for (const item of open.splice(0).reverse()) await item.close().catch(() => {});
  await cluster?.stop();
});

/** A receiver on loopback that records every body it was sent, by alert id (200 to all). */
async function startRecordingReceiver() {
  const received = new Map<string, unknown[]>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
      received.set(body.id, [...(received.get(body.id) ?? []), body]);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    url: `http://127.0.0.1:${port}/hook`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `count` channel ids on shard `shard` of `SHARDS`. */
function channelIdsOnShard(shard: number, count: number): string[] {
  const ids: string[] = [];
  for (let i = 0; ids.length < count; i++) {
    const id = `wh_reshard_${i}`;
    if (shardOf(id, SHARDS) === shard) ids.push(id);
  }
  return ids;
}

/** One `enqueue` call during the storm and how it ended. */
interface Call {
  readonly channelId: string;
  readonly alert: ReturnType<typeof sampleAlert>;
  readonly startedAt: number;
  ms?: number;
  jobId?: string;
  error?: unknown;
}

/** A short description of an error that is not the expected one, for the assertion message. */
function describeError(error: unknown): string {
  const { name, code, message, cause } = error as {
    name?: string;
    code?: string;
    message?: string;
    cause?: { name?: string; message?: string };
  };
  const from = cause ? ` (cause ${cause.name}: ${cause.message})` : '';
  return `${name} ${code ?? ''}: ${message}${from}`;
}

const drained = async (queue: DeliveryQueue) => {
  const counts = await queue.getCounts();
  return counts.waiting + counts.active + counts.delayed === 0;
};

describe('the delivery queue while its shard slot is resharded', () => {
  it(
    'refuses enqueue only with redis_unavailable in time, and keeps every acknowledged alert once, intact',
    async () => {
      const slot = keySlot(`{${shardTag(SHARD, SHARDS)}}`);
      const receiver = await startRecordingReceiver();
      open.push(receiver);
      const base = {
        connection: {
          cluster: cluster.startupNodes,
          clusterOptions: { retryDelayOnFailover: 100 },
        },
        queueName: 'reshard',
        shards: SHARDS,
      };
      const queue = createDeliveryQueue({ ...base, commandTimeoutMs: COMMAND_TIMEOUT_MS });
      open.push(queue);
      await queue.getCounts(); // connected, slots known

      const channels: DeliveryChannel[] = channelIdsOnShard(SHARD, 20).map((id) => ({
        id,
        url: receiver.url,
        secret: SECRET,
      }));
      const calls: Call[] = [];
      // The alerts are cut in MOVES + 1 phases; phase k (k >= 1) starts once move k has opened the
      // slot (its first keys moved), so the producers never run ahead of the resharding and every
      // open slot meets calls in flight.
      const perPhase = TOTAL_ALERTS / (MOVES + 1);
      let slotsOpened = 0;
      let next = 0;
      const producer = async () => {
        for (let i = next++; i < TOTAL_ALERTS; i = next++) {
          const phase = Math.floor(i / perPhase);
          if (phase > slotsOpened) {
            await waitFor(`move ${phase} to open the slot`, () => slotsOpened >= phase);
          }
          const call: Call = {
            channelId: channels[i % channels.length]!.id,
            alert: sampleAlert(),
            startedAt: performance.now(),
          };
          calls.push(call);
          try {
            call.jobId = (await queue.enqueue(call.channelId, call.alert)).jobId;
          } catch (error) {
            call.error = error;
          }
          call.ms = performance.now() - call.startedAt;
        }
      };
      const settled = () => calls.filter((call) => call.ms !== undefined);

      const stormStarted = performance.now();
      const producing = Promise.all(Array.from({ length: PRODUCERS }, producer));
      const moves: SlotMove[] = [];
      for (let k = 1; k <= MOVES; k++) {
        await waitFor(`phase ${k - 1} settled`, () => settled().length >= k * perPhase, 20_000);
        moves.push(
          await moveSlot(cluster, slot, {
            whileOpen: async () => {
              const openedAt = performance.now();
              slotsOpened = k;
              await waitFor(
                `${CALLS_PER_OPEN_SLOT} calls to meet the open slot (move ${k})`,
                () =>
                  settled().filter((call) => call.startedAt >= openedAt).length >=
                  CALLS_PER_OPEN_SLOT,
                10_000,
              );
            },
          }),
        );
      }
      await producing;
      const stormMs = performance.now() - stormStarted;

      const refused = calls.filter((call) => call.error !== undefined);
      const longest = Math.max(...calls.map((call) => call.ms!));
      const refusals = new Map<string, number>();
      for (const { error } of refused) {
        const message = describeError(error);
        refusals.set(message, (refusals.get(message) ?? 0) + 1);
      }
      const moved = moves
        .map(
          (move) =>
            `${move.fromPort}->${move.toPort} ${move.keysMoved} keys open ${move.openMs} ms`,
        )
        .join(', ');
      const refusedAs = [...refusals].map(([message, count]) => `${count} × ${message}`).join('; ');
      console.info(
        `resharding storm: ${MOVES} moves of slot ${slot} (${moved}); ` +
          `${calls.length} enqueue calls in ${Math.round(stormMs)} ms, ${refused.length} refused, ` +
          `longest call ${Math.round(longest)} ms; refused as: ${refusedAs || '-'}`,
      );

      // 1. Refused only as redis_unavailable, and never later than commandTimeoutMs + margin.
      const wrong = refused
        .filter(
          (call) => !(isCspwatchRedisError(call.error) && call.error.code === 'redis_unavailable'),
        )
        .map((call) => describeError(call.error));
      expect(wrong).toEqual([]);
      expect(calls).toHaveLength(TOTAL_ALERTS);
      expect(longest).toBeLessThan(COMMAND_TIMEOUT_MS + MARGIN_MS);
      for (const call of calls.filter((c) => c.jobId !== undefined)) {
        expect(call.jobId).toBe(deliveryJobId(call.channelId, call.alert.id));
      }

      // 2. A refused alert enqueued again is accepted, as the same job.
      for (const call of refused) {
        expect(await queue.enqueue(call.channelId, call.alert)).toEqual({
          jobId: deliveryJobId(call.channelId, call.alert.id),
        });
      }

      // Every alert is one job on the shard, its data as enqueued (read straight from BullMQ).
      const reader = new Cluster(cluster.startupNodes);
      reader.on('error', () => {});
      const shardQueue = new Queue(base.queueName, {
        connection: reader,
        prefix: shardPrefix('cspwatch', SHARD, SHARDS),
        skipMetasUpdate: true,
      });
      open.push({
        close: async () => {
          await shardQueue.close();
          reader.disconnect();
        },
      });
      const waiting = await shardQueue.getWaiting(0, -1);
      const jobIds = waiting.map((job) => job.id);
      expect(new Set(jobIds).size).toBe(jobIds.length);
      expect(new Set(jobIds)).toEqual(
        new Set(calls.map((call) => deliveryJobId(call.channelId, call.alert.id))),
      );
      const byJobId = new Map(
        calls.map((call) => [deliveryJobId(call.channelId, call.alert.id), call]),
      );
      for (const job of waiting) {
        const call = byJobId.get(job.id!)!;
        expect(job.data).toMatchObject({ channelId: call.channelId, alert: call.alert });
      }

      // Read through the queue: every alert delivered exactly once, its body the alert.
      const byId = new Map(channels.map((channel) => [channel.id, channel]));
      const worker = createDeliveryWorker({
        ...base,
        channels: (id) => byId.get(id),
        concurrency: 50,
        sender: { dangerouslyAllowLoopback: true, timeoutMs: 5_000 },
      });
      open.push(worker);
      await waitFor('every alert delivered', () => receiver.received.size === calls.length, 30_000);
      await waitFor('the queue to drain', () => drained(queue));
      for (const call of calls) {
        expect(receiver.received.get(call.alert.id)).toEqual([call.alert]);
      }
      expect(await queue.getCounts()).toMatchObject({ failed: 0, parked: 0 });
    },
    budget(60_000),
  );
});
