/**
 * The per-channel in-flight cap (one dead endpoint holds at most `maxInFlightPerChannel` of the
 * fleet's slots, and is disabled after at most 5 + cap attempts), one alert's history in one
 * call, and a graceful close that waits for the deliveries in flight.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createDeliveryQueue, createDeliveryWorker } from '@cspwatch/redis/queue';
import type { DeliveryChannel } from '@cspwatch/webhook-sender';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { sampleAlert } from './helpers/alerts';
import { queueDrained, queueTestBed } from './helpers/queue-test-bed';
import { startRedisProxy } from './helpers/redis-proxy';
import { waitFor } from './helpers/wait-for';

const SECRET = 'whsec_fairness-secret-0123456789';
const bed = queueTestBed(SECRET);

/** An HTTP receiver on loopback that holds every request until `answer` is called. */
async function startHoldingReceiver() {
  const held: ServerResponse[] = [];
  let open = 0;
  let mostOpen = 0;
  let requests = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    requests++;
    open++;
    mostOpen = Math.max(mostOpen, open);
    request.resume();
    response.on('close', () => open--);
    held.push(response);
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    stats: () => ({ requests, open, mostOpen }),
    /** Answers every request held so far. */
    answerAll(status = 200) {
      for (const response of held.splice(0)) response.writeHead(status).end();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('the per-channel in-flight cap', () => {
  it('lets a hanging channel hold at most `cap` slots, disables it after at most 5 + cap attempts, and delivers the others meanwhile', async () => {
    const hang = await startHoldingReceiver();
    bed.closeAfterTest(hang);
    const cap = 2;
    const hanging: DeliveryChannel = { id: bed.uniqueName('hang-'), url: hang.url, secret: SECRET };
    bed.channels.set(hanging.id, hanging);
    const healthy = bed.inboxChannel();
    const base = { connection: bed.redis.url, queueName: bed.uniqueName('fair') };
    const queue = createDeliveryQueue({ ...base, attemptDelaysMs: [0, 10, 10, 10, 10, 10, 10] });
    // Timeouts long enough that the hanging channel's slots stay held while the healthy
    // channel's alerts go through: 16 slots in this worker, 2 for the dead endpoint.
    const worker = createDeliveryWorker({
      ...base,
      channels: bed.lookup,
      concurrency: 16,
      maxInFlightPerChannel: cap,
      sender: { dangerouslyAllowLoopback: true, timeoutMs: 60_000 },
    });
    bed.closeAfterTest(queue, worker);
    const stuck = Array.from({ length: 20 }, () => sampleAlert());
    const fine = Array.from({ length: 30 }, () => sampleAlert());
    for (const alert of stuck) await queue.enqueue(hanging.id, alert);
    await waitFor('the hanging channel to hold its slots', () => hang.stats().open === cap);
    for (const alert of fine) await queue.enqueue(healthy.id, alert);
    // Every healthy alert is delivered while the dead endpoint still holds its two requests.
    await waitFor(
      'the healthy channel delivered',
      () => bed.mock.service.inbox.deliveries(healthy.id).length === fine.length,
    );
    expect(hang.stats()).toMatchObject({ open: cap, requests: cap });

    // The endpoint now fails each request it holds (500), as a dead one times out: each
    // freed slot lets one waiting alert in, until the fifth failure disables the channel.
    await waitFor('the channel disabled', async () => {
      hang.answerAll(500);
      return (await queue.getChannelState(hanging.id)).disabled;
    });
    hang.answerAll(500);
    await waitFor('the queue to drain', () => queueDrained(queue));
    expect(hang.stats().mostOpen).toBe(cap);
    expect(hang.stats().requests).toBeGreaterThanOrEqual(5);
    expect(hang.stats().requests).toBeLessThanOrEqual(5 + cap);
    // Every alert of the dead endpoint is parked (tried or not), none lost, none delivered.
    expect(await queue.countParked(hanging.id)).toBe(stuck.length);
    const disabledBy = (
      await Promise.all(stuck.map((alert) => queue.getAlertHistory(alert.id)))
    ).flatMap((entries) =>
      entries.filter((entry) => entry.kind === 'attempt' && entry.disabledNow),
    );
    expect(disabledBy).toHaveLength(1);
  });
});

describe('a slot whose take ran twice', () => {
  it('is given back whole: its reply was lost and ioredis sent the take again', async () => {
    const proxy = await startRedisProxy(bed.redis.url);
    const queueName = bed.uniqueName('resent');
    const queue = createDeliveryQueue({
      connection: bed.redis.url,
      queueName,
      attemptDelaysMs: [0],
    });
    const worker = createDeliveryWorker({
      connection: proxy.url, // the worker's commands go through the proxy
      queueName,
      channels: bed.lookup,
      maxInFlightPerChannel: 1,
      // A lease of over ten minutes: a copy of the slot left behind would hold the channel that long.
      sender: { dangerouslyAllowLoopback: true, timeoutMs: 600_000 },
    });
    const admin = new Redis(bed.redis.url);
    bed.closeAfterTest({ close: async () => admin.disconnect() }, proxy, queue, worker);
    const channel = bed.inboxChannel();
    const deliveries = () => bed.mock.service.inbox.deliveries(channel.id).length;
    await queue.enqueue(channel.id, sampleAlert()); // its attempt creates the channel's slots
    await waitFor('the first delivery', () => deliveries() === 1);
    await waitFor('the queue to drain', () => queueDrained(queue));

    const lost = proxy.loseReplyTo('lpushx');
    await queue.enqueue(channel.id, sampleAlert());
    await lost;
    await waitFor('the second delivery', () => deliveries() === 2);
    await waitFor('the queue to drain', () => queueDrained(queue));
    const slots = await admin.lrange(`cspwatch:${queueName}:slots:{${channel.id}}`, 0, -1);
    expect(slots).toEqual(['~']);
  });
});

describe("one alert's history", () => {
  it('answers every attempt and event of one alert in one call, kept whatever the channel count bound', async () => {
    const base = {
      connection: bed.redis.url,
      queueName: bed.uniqueName('hist'),
      history: { maxEntries: 2 },
    };
    const queue = createDeliveryQueue({ ...base, attemptDelaysMs: [0, 10, 10] });
    const { id } = bed.inboxChannel(500);
    const worker = createDeliveryWorker({
      ...base,
      channels: bed.lookup,
      sender: { dangerouslyAllowLoopback: true },
    });
    bed.closeAfterTest(queue, worker);
    const first = sampleAlert();
    await queue.enqueue(id, first);
    await waitFor('three attempts, then parked', async () => {
      const entries = await queue.getAlertHistory(first.id);
      return entries.at(-1)?.kind === 'parked';
    });
    const entries = await queue.getAlertHistory(first.id);
    expect(entries.map((entry) => [entry.kind, entry.attempt])).toEqual([
      ['attempt', 1],
      ['attempt', 2],
      ['attempt', 3],
      ['parked', 3],
    ]);
    expect(entries[0]).toMatchObject({
      channelId: id,
      ok: false,
      status: 500,
      cause: 'http_status',
    });
    // The channel's own history keeps 2 entries; the alert's history still has all 4.
    expect((await queue.getHistory(id)).entries).toHaveLength(2);
    expect(await queue.getAlertHistory('no-such-alert')).toEqual([]);
    await expect(queue.getAlertHistory('' as string)).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });
});

describe('close()', () => {
  it('stops taking jobs and waits for the delivery in flight before it resolves', async () => {
    const slow = await startHoldingReceiver();
    bed.closeAfterTest(slow);
    const channel = { id: bed.uniqueName('slow-'), url: slow.url, secret: SECRET };
    const base = { connection: bed.redis.url, queueName: bed.uniqueName('close') };
    const queue = createDeliveryQueue({ ...base, attemptDelaysMs: [0] });
    const worker = createDeliveryWorker({
      ...base,
      channels: () => channel,
      sender: { dangerouslyAllowLoopback: true, timeoutMs: 60_000 },
    });
    bed.closeAfterTest(queue);
    const alert = sampleAlert();
    await queue.enqueue(channel.id, alert);
    await waitFor('the delivery in flight', () => slow.stats().open === 1);
    let closed = false;
    const closing = worker.close().then(() => {
      closed = true;
    });
    await queue.enqueue(channel.id, sampleAlert()); // not taken: the worker is closing
    // Not delivered: BullMQ may hand the closing worker the job, which gives it straight back.
    await waitFor('the second alert waiting', async () => {
      const counts = await queue.getCounts();
      return counts.active === 1 && counts.waiting + counts.delayed === 1;
    });
    expect(closed).toBe(false);
    slow.answerAll(200);
    await closing;
    const entries = await queue.getAlertHistory(alert.id);
    expect(entries).toMatchObject([{ kind: 'attempt', ok: true, attempt: 1 }]);
    expect(slow.stats().requests).toBe(1);
    const counts = await queue.getCounts();
    expect(counts.waiting + counts.delayed).toBe(1);
  });
});

describe('close() past closeTimeoutMs', () => {
  it('resolves while a delivery still hangs, and another worker delivers that alert once its lock ran out', async () => {
    const slow = await startHoldingReceiver();
    bed.closeAfterTest(slow);
    const channel = { id: bed.uniqueName('hang-'), url: slow.url, secret: SECRET };
    const base = { connection: bed.redis.url, queueName: bed.uniqueName('close-timeout') };
    const queue = createDeliveryQueue({ ...base, attemptDelaysMs: [0] });
    bed.closeAfterTest(queue);
    const timings = { lockDurationMs: 200, stalledIntervalMs: 200, closeTimeoutMs: 100 };
    const sender = { dangerouslyAllowLoopback: true, timeoutMs: 600_000 };
    const errors: Error[] = [];
    const first = createDeliveryWorker({
      ...base,
      ...timings,
      channels: () => channel,
      sender,
      onError: (error) => errors.push(error),
    });
    const alert = sampleAlert();
    await queue.enqueue(channel.id, alert);
    await waitFor('the delivery in flight', () => slow.stats().open === 1);
    await first.close(); // on main this waited for the sender's timeout (10 minutes here)
    expect(slow.stats()).toMatchObject({ requests: 1, open: 1 });

    const second = createDeliveryWorker({ ...base, ...timings, channels: () => channel, sender });
    bed.closeAfterTest(second);
    await waitFor('the second attempt', () => slow.stats().requests === 2);
    slow.answerAll(200);
    await waitFor('the queue to drain', () => queueDrained(queue));
    const attempts = (await queue.getAlertHistory(alert.id)).filter((e) => e.kind === 'attempt');
    expect(attempts).toMatchObject([{ ok: true }]);
  });
});
