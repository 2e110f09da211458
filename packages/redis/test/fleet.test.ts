/**
 * The multi-process runs: 4 worker processes on one Redis deliver 2,000 alerts over
 * several channels to the mock inbox on loopback; some channels always answer 500, some flap.
 * Repeated with one worker SIGKILLed mid-run, and with Redis crashing and restarting mid-run.
 */
import type { ChildProcess } from 'node:child_process';
import { type MockServer, startMockServer } from '@cspwatch/mock-server';
import {
  createDeliveryQueue,
  type DeliveryAttemptEntry,
  type DeliveryHistoryEntry,
  type DeliveryQueue,
} from '@cspwatch/redis/queue';
import type { DeliveryChannel } from '@cspwatch/webhook-sender';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sampleAlert } from './helpers/alerts';
import { type RedisServerHandle, startRedisServer } from './helpers/redis-server';
import { waitFor } from './helpers/wait-for';
import { startWorkerProcess, stopWorkerProcess } from './helpers/worker-fleet';

const SECRET = 'whsec_fleet-secret-0123456789';
const ALERTS = 2_000;
const WORKERS = 4;
const CONCURRENCY = 16;
let redis: RedisServerHandle;
let mock: MockServer;
let workers: ChildProcess[] = [];
let queue: DeliveryQueue | undefined;
let run = 0;

beforeAll(async () => {
  // AOF on, so the crash run restarts with every acknowledged write (as production should).
  [redis, mock] = await Promise.all([startRedisServer({ persistent: true }), startMockServer()]);
});
afterEach(async () => {
  await Promise.all(workers.map((worker) => stopWorkerProcess(worker, 'SIGKILL')));
  workers = [];
  await queue?.close();
});
afterAll(async () => {
  await mock?.close();
  await redis?.stop();
});

type Kind = 'healthy' | 'failing' | 'flapping';
const KINDS: Kind[] = [
  'healthy',
  'healthy',
  'healthy',
  'failing',
  'failing',
  'flapping',
  'flapping',
];

async function everyHistoryEntry(channelId: string): Promise<DeliveryHistoryEntry[]> {
  const entries: DeliveryHistoryEntry[] = [];
  let cursor: string | null = null;
  do {
    const page = await queue!.getHistory(channelId, { limit: 1000, cursor });
    entries.push(...page.entries);
    cursor = page.nextCursor;
  } while (cursor);
  return entries;
}

async function drained(): Promise<boolean> {
  const counts = await queue!.getCounts();
  return counts.waiting + counts.active + counts.delayed === 0;
}

async function fleetRun(fault: 'none' | 'kill-worker' | 'restart-redis') {
  const queueName = `fleet-${++run}`;
  const channels = KINDS.map((kind) => {
    const status = kind === 'failing' ? 500 : 200;
    const { id, url } = mock.service.inbox.createChannel({ secret: SECRET, response: { status } });
    return { kind, channel: { id, url, secret: SECRET } as DeliveryChannel };
  });
  queue = createDeliveryQueue({
    connection: redis.url,
    queueName,
    attemptDelaysMs: [0, 20, 50, 100, 200],
    jitter: 0.2,
    commandTimeoutMs: 10_000,
    history: { maxEntries: 100_000 },
  });
  const options = {
    redisUrl: redis.url,
    queueName,
    channels: channels.map((c) => c.channel),
    concurrency: CONCURRENCY,
  };
  workers = await Promise.all(Array.from({ length: WORKERS }, () => startWorkerProcess(options)));

  // Flapping channels alternate between 500 and 200 until the end of phase 1.
  let flip = false;
  const flapper = setInterval(() => {
    flip = !flip;
    for (const { kind, channel } of channels) {
      if (kind === 'flapping')
        mock.service.inbox.setResponse(channel.id, { status: flip ? 500 : 200 });
    }
  }, 15);

  const sent = new Map<string, string[]>(channels.map(({ channel }) => [channel.id, []]));
  const alerts = Array.from({ length: ALERTS }, (_, index) => ({
    channel: channels[index % channels.length]!.channel,
    alert: sampleAlert(),
  }));
  for (let start = 0; start < alerts.length; start += 200) {
    await Promise.all(
      alerts.slice(start, start + 200).map(async ({ channel, alert }) => {
        await queue!.enqueue(channel.id, alert);
        sent.get(channel.id)!.push(alert.id);
      }),
    );
  }
  const deliveredCount = () =>
    channels.reduce(
      (sum, { channel }) => sum + mock.service.inbox.deliveries(channel.id).length,
      0,
    );
  if (fault === 'kill-worker') {
    await waitFor('a third of the deliveries', () => deliveredCount() >= ALERTS / 3, 60_000);
    await stopWorkerProcess(workers[0]!, 'SIGKILL');
  }
  if (fault === 'restart-redis') {
    await waitFor('a third of the deliveries', () => deliveredCount() >= ALERTS / 3, 60_000);
    await redis.restart({ downMs: 300 });
  }
  await waitFor('phase 1 to drain', drained, 90_000);
  clearInterval(flapper);

  // Phase 2: the flapping endpoints are fixed; re-enabling releases whatever was parked.
  for (const { kind, channel } of channels) {
    if (kind !== 'flapping') continue;
    mock.service.inbox.setResponse(channel.id, { status: 200 });
    await queue.enableChannel(channel.id);
  }
  await waitFor('phase 2 to drain', drained, 90_000);

  for (const { kind, channel } of channels) {
    const received = mock.service.inbox.deliveries(channel.id);
    expect(received.every((delivery) => delivery.verified)).toBe(true);
    const history = await everyHistoryEntry(channel.id);
    const attempts = history.filter(
      (entry): entry is DeliveryAttemptEntry => entry.kind === 'attempt',
    );
    const ids = sent.get(channel.id)!;
    if (kind === 'failing') {
      expect(await queue.getChannelState(channel.id)).toMatchObject({ disabled: true });
      // Every alert of the channel is parked: none delivered, none lost.
      expect(await queue.countParked(channel.id)).toBe(ids.length);
      const disabledBy = attempts.filter((entry) => entry.disabledNow).length;
      if (fault === 'none') expect(disabledBy).toBe(1);
      else expect(disabledBy).toBeLessThanOrEqual(1); // a SIGKILL may land between the attempt and its record
    } else {
      const ok = new Set(received.filter((d) => d.status === 200).map((d) => d.event?.id));
      expect(ids.filter((id) => !ok.has(id))).toEqual([]);
      expect(await queue.countParked(channel.id)).toBe(0);
    }
    if (fault === 'none') {
      expect(attempts).toHaveLength(received.length);
    } else {
      // An attempt cut off by SIGKILL or by the Redis crash can reach the inbox without its
      // record (at most the deliveries in flight at that moment); a record never lacks a request.
      expect(attempts.length).toBeLessThanOrEqual(received.length);
      expect(received.length - attempts.length).toBeLessThanOrEqual(WORKERS * CONCURRENCY);
    }
  }
  expect((await queue.getCounts()).failed).toBe(0);
}

describe('a fleet of 4 worker processes on one Redis', () => {
  it('delivers 2,000 alerts: none lost, failing channels disabled exactly once, history = inbox', async () => {
    await fleetRun('none');
  }, 180_000);

  it('loses nothing when one worker is killed with SIGKILL mid-run', async () => {
    await fleetRun('kill-worker');
  }, 180_000);

  it('loses nothing when Redis crashes and restarts mid-run', async () => {
    await fleetRun('restart-redis');
  }, 180_000);
});
