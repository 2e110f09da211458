import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { createRedisChannelStateStore } from '@cspwatch/redis';
import {
  CspwatchRedisError,
  createDeliveryQueue,
  createDeliveryWorker,
  type DeliveryAttemptEntry,
  type DeliveryQueue,
  isCspwatchRedisError,
} from '@cspwatch/redis/queue';
import { createWebhookSender } from '@cspwatch/webhook-sender';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { sampleAlert } from './helpers/alerts';
import { queueDrained, queueTestBed } from './helpers/queue-test-bed';
import { startRedisServer } from './helpers/redis-server';
import { waitFor } from './helpers/wait-for';
import { startWorkerProcess, stopWorkerProcess } from './helpers/worker-fleet';

const SECRET = 'whsec_queue-test-secret-0123456789';
const SHORT_SCHEDULE = [0, 20, 40, 60, 80];
const bed = queueTestBed(SECRET);
const { channels, inboxChannel } = bed;

/** A queue and a worker on a fresh queue name, with the short schedule. */
function setup(overrides: { attemptDelaysMs?: number[]; parkedTtlMs?: number } = {}) {
  const base = {
    connection: bed.redis.url,
    queueName: bed.uniqueName('q'),
    ...(overrides.parkedTtlMs ? { parkedTtlMs: overrides.parkedTtlMs } : {}),
  };
  const queue = createDeliveryQueue({
    ...base,
    attemptDelaysMs: overrides.attemptDelaysMs ?? SHORT_SCHEDULE,
    jitter: 0.5,
  });
  const worker = createDeliveryWorker({
    ...base,
    channels: bed.lookup,
    concurrency: 8,
    sender: { dangerouslyAllowLoopback: true, timeoutMs: 5_000 },
  });
  bed.closeAfterTest(queue, worker);
  return { queue, worker, queueName: base.queueName };
}

/** Parking writes the parked set, then the history: wait for the record, not the set. */
const waitForParkedRecord = (queue: DeliveryQueue, channelId: string) =>
  waitFor(
    'the parked record',
    async () => (await queue.getHistory(channelId)).entries[0]?.kind === 'parked',
  );

async function allHistory(queue: DeliveryQueue, channelId: string) {
  const entries = [];
  let cursor: string | null = null;
  do {
    const page = await queue.getHistory(channelId, { limit: 7, cursor });
    entries.push(...page.entries);
    cursor = page.nextCursor;
  } while (cursor);
  return entries;
}

describe('delivery queue and worker', () => {
  it('delivers an enqueued alert once, signed, and records the attempt', async () => {
    const { queue } = setup();
    const channel = inboxChannel();
    const alert = sampleAlert();
    const { jobId } = await queue.enqueue(channel.id, alert);
    expect(jobId).toMatch(/^[0-9a-f]{40}$/);
    await waitFor('the delivery', () => bed.mock.service.inbox.deliveries(channel.id).length === 1);
    await waitFor('the queue to drain', () => queueDrained(queue));
    const [delivery] = bed.mock.service.inbox.deliveries(channel.id);
    expect(delivery?.verified).toBe(true);
    expect(delivery?.event).toEqual(alert);
    const history = await queue.getHistory(channel.id);
    expect(history.nextCursor).toBeNull();
    expect(history.entries).toEqual([
      expect.objectContaining({
        kind: 'attempt',
        alertId: alert.id,
        channelId: channel.id,
        attempt: 1,
        ok: true,
        status: 200,
        cause: null,
      }),
    ]);
  });

  it('treats the same alert enqueued twice for a channel while pending as one job', async () => {
    const { queue } = setup({ attemptDelaysMs: [200] }); // still pending when enqueued again
    const channel = inboxChannel();
    const alert = sampleAlert();
    const [first, second] = await Promise.all([
      queue.enqueue(channel.id, alert),
      queue.enqueue(channel.id, alert),
    ]);
    expect(second.jobId).toBe(first.jobId);
    const other = await queue.enqueue(inboxChannel().id, alert);
    expect(other.jobId).not.toBe(first.jobId);
    await waitFor('the queue to drain', () => queueDrained(queue));
    expect(bed.mock.service.inbox.deliveries(channel.id)).toHaveLength(1);
  });

  it('retries on the schedule with the same id and a fresh signature, counting each failure', async () => {
    const { queue } = setup();
    const channel = inboxChannel(500);
    const alert = sampleAlert();
    await queue.enqueue(channel.id, alert);
    await waitFor(
      'two failed attempts',
      () => bed.mock.service.inbox.deliveries(channel.id).length >= 2,
    );
    bed.mock.service.inbox.setResponse(channel.id, { status: 204 });
    await waitFor('a success', () =>
      bed.mock.service.inbox.deliveries(channel.id).some((d) => d.status === 204),
    );
    await waitFor('the queue to drain', () => queueDrained(queue));
    const received = bed.mock.service.inbox.deliveries(channel.id);
    expect(received.every((d) => d.verified && d.event?.id === alert.id)).toBe(true);
    const timestamps = received.map(
      (d) => d.headers['x-cspwatch-timestamp'] ?? d.headers['webhook-timestamp'],
    );
    const signatures = new Set(
      received.map((d) =>
        JSON.stringify(Object.entries(d.headers).filter(([k]) => k.includes('signature'))),
      ),
    );
    expect(signatures.size).toBe(received.length);
    expect(timestamps.length).toBe(received.length);
    const history = (await allHistory(queue, channel.id)) as DeliveryAttemptEntry[];
    expect(history.map((e) => e.attempt)).toEqual(received.map((_, i) => received.length - i));
    expect(history[0]).toMatchObject({ ok: true, status: 204, consecutiveFailures: 0 });
    expect(history.at(-1)).toMatchObject({
      ok: false,
      status: 500,
      cause: 'http_status',
      consecutiveFailures: 1,
    });
  });

  it('disables a failing channel exactly once, parks its alerts, and releases them on re-enable', async () => {
    const { queue } = setup({ attemptDelaysMs: [0, 10, 10, 10, 10, 10, 10, 10] });
    const channel = inboxChannel(500);
    const alerts = Array.from({ length: 12 }, () => sampleAlert());
    for (const alert of alerts) await queue.enqueue(channel.id, alert);
    await waitFor(
      'every alert parked',
      async () => (await queue.countParked(channel.id)) === alerts.length,
    );
    await waitFor('the queue to drain', () => queueDrained(queue));
    expect(await queue.getChannelState(channel.id)).toMatchObject({ disabled: true });
    const history = await allHistory(queue, channel.id);
    const attempts = history.filter((e): e is DeliveryAttemptEntry => e.kind === 'attempt');
    expect(attempts.filter((e) => e.disabledNow)).toHaveLength(1);
    expect(attempts).toHaveLength(bed.mock.service.inbox.deliveries(channel.id).length);
    expect(
      history.filter((e) => e.kind === 'parked' && e.reason === 'channel_disabled'),
    ).toHaveLength(12);

    bed.mock.service.inbox.setResponse(channel.id, { status: 200 });
    expect(await queue.enableChannel(channel.id)).toEqual({ released: 12 });
    await waitFor('every alert delivered', () => {
      const ok = new Set(
        bed.mock.service.inbox
          .deliveries(channel.id)
          .filter((d) => d.status === 200)
          .map((d) => d.event?.id),
      );
      return alerts.every((alert) => ok.has(alert.id));
    });
    expect(await queue.countParked(channel.id)).toBe(0);
    const released = (await allHistory(queue, channel.id)).filter((e) => e.kind === 'released');
    expect(released).toHaveLength(12);
  });

  it('releases each parked alert once when two releases of its channel run at the same time', async () => {
    const { queue } = setup({ attemptDelaysMs: [0] }); // one attempt, then parked
    const channel = inboxChannel(500);
    const alerts = Array.from({ length: 3 }, () => sampleAlert());
    for (const alert of alerts) await queue.enqueue(channel.id, alert);
    await waitFor('every alert parked', async () => (await queue.countParked(channel.id)) === 3);
    await waitFor('the queue to drain', () => queueDrained(queue));
    bed.mock.service.inbox.setResponse(channel.id, { status: 200 });

    const [first, second] = await Promise.all([
      queue.releaseParked(channel.id),
      queue.releaseParked(channel.id),
    ]);
    await waitFor('the queue to drain', () => queueDrained(queue));
    const delivered = bed.mock.service.inbox
      .deliveries(channel.id)
      .filter((delivery) => delivery.status === 200)
      .map((delivery) => delivery.event?.id);
    expect(delivered.sort()).toEqual(alerts.map((alert) => alert.id).sort());
    expect([first.released, second.released].sort()).toEqual([0, 3]);
    const released = (await allHistory(queue, channel.id)).filter((e) => e.kind === 'released');
    expect(released).toHaveLength(3);
  });

  it('waits for a release of the channel under way, then releases what is parked', async () => {
    const { queue, queueName } = setup({ attemptDelaysMs: [0] }); // one attempt, then parked
    const channel = inboxChannel(500);
    const alerts = Array.from({ length: 2 }, () => sampleAlert());
    for (const alert of alerts) await queue.enqueue(channel.id, alert);
    await waitFor('every alert parked', async () => (await queue.countParked(channel.id)) === 2);
    bed.mock.service.inbox.setResponse(channel.id, { status: 200 });
    const admin = new Redis(bed.redis.url);
    const monitor = await admin.monitor();
    bed.closeAfterTest({
      close: async () => {
        monitor.disconnect();
        admin.disconnect();
      },
    });
    // Another release holds the channel's lock: this one must wait for it, not answer 0.
    const lock = `cspwatch:${queueName}:releasing:{${channel.id}}`;
    await admin.set(lock, 'another release');
    const refused = new Promise<void>((resolve) =>
      monitor.on('monitor', (_time: string, args: string[]) => {
        if (args[0]?.toLowerCase() === 'set' && args[1] === lock) resolve();
      }),
    );
    const release = queue.releaseParked(channel.id);
    await refused; // it tried the lock while it was held
    await admin.del(lock);
    expect((await release).released).toBe(2);
    await waitFor(
      'both delivered',
      () =>
        bed.mock.service.inbox.deliveries(channel.id).filter((d) => d.status === 200).length === 2,
    );
  });

  it('reports through onError a Redis error that cut an attempt short, and delivers on the retry', async () => {
    const base = { connection: bed.redis.url, queueName: bed.uniqueName('q') };
    const queue = createDeliveryQueue({ ...base, attemptDelaysMs: SHORT_SCHEDULE });
    const channel = inboxChannel();
    const admin = new Redis(bed.redis.url);
    bed.closeAfterTest({ close: async () => admin.disconnect() });
    // A key of another kind where the channel's in-flight slots live: the slot take fails.
    const slotsKey = `cspwatch:${base.queueName}:slots:{${channel.id}}`;
    let lookups = 0;
    const errors: Error[] = [];
    const worker = createDeliveryWorker({
      ...base,
      channels: async (id) => {
        if (++lookups === 1) await admin.set(slotsKey, 'not a list');
        else await admin.del(slotsKey);
        return bed.lookup(id);
      },
      onError: (error) => errors.push(error),
      sender: { dangerouslyAllowLoopback: true, timeoutMs: 5_000 },
    });
    bed.closeAfterTest(queue, worker);
    const alert = sampleAlert();
    await queue.enqueue(channel.id, alert);
    await waitFor('the delivery', () => bed.mock.service.inbox.deliveries(channel.id).length === 1);
    await waitFor('the queue to drain', () => queueDrained(queue));
    expect(errors.map((error) => error.message)).toEqual([expect.stringMatching(/WRONGTYPE/)]);
    expect(await queue.getAlertHistory(alert.id)).toMatchObject([{ kind: 'attempt', ok: true }]);
  });

  it('parks an alert whose schedule ran out, and expires parked alerts after parkedTtlMs (recorded)', async () => {
    const { queue } = setup({ attemptDelaysMs: [0, 10], parkedTtlMs: 50 });
    const channel = inboxChannel(503);
    const alert = sampleAlert();
    await queue.enqueue(channel.id, alert);
    await waitForParkedRecord(queue, channel.id);
    expect(await queue.countParked(channel.id)).toBe(1);
    expect(bed.mock.service.inbox.deliveries(channel.id)).toHaveLength(2);
    expect((await queue.getHistory(channel.id)).entries[0]).toMatchObject({
      kind: 'parked',
      reason: 'retries_exhausted',
      attempt: 2,
    });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await queue.expireParked()).toEqual({ expired: 1 });
    expect(await queue.countParked(channel.id)).toBe(0);
    expect((await queue.getHistory(channel.id)).entries[0]).toMatchObject({
      kind: 'expired',
      alertId: alert.id,
    });
  });

  it('records a throwing channel lookup on every attempt, reports it, and parks with that cause', async () => {
    const base = { connection: bed.redis.url, queueName: bed.uniqueName('q') };
    const queue = createDeliveryQueue({ ...base, attemptDelaysMs: [0, 10, 10] });
    const reported: unknown[] = [];
    const worker = createDeliveryWorker({
      ...base,
      channels: () => {
        throw new Error('the channel database is down');
      },
      onError: (error) => reported.push(error),
    });
    bed.closeAfterTest(queue, worker);
    const alert = sampleAlert();
    await queue.enqueue('ch_db_down', alert);
    await waitForParkedRecord(queue, 'ch_db_down');
    expect(await queue.countParked('ch_db_down')).toBe(1);
    const history = await queue.getAlertHistory(alert.id);
    expect(history.map((entry) => [entry.kind, entry.attempt])).toEqual([
      ['attempt', 1],
      ['attempt', 2],
      ['attempt', 3],
      ['parked', 3],
    ]);
    expect(history[0]).toMatchObject({
      cause: 'channel_lookup_failed',
      error: 'the channels lookup threw: the channel database is down',
      disabledNow: false,
    });
    expect(history[3]).toMatchObject({ reason: 'channel_lookup_failed' });
    expect(reported).toHaveLength(3);
    expect(reported[0]).toMatchObject({ code: 'channel_unusable' });
    expect(await queue.getChannelState('ch_db_down')).toEqual({
      consecutiveFailures: 0,
      disabled: false,
    });
    await waitFor('the failed job removed', async () => (await queue.getCounts()).failed === 0);
  });

  it('never counts a channel configuration it cannot deliver to (short secret, bad URL) against the channel', async () => {
    const base = { connection: bed.redis.url, queueName: bed.uniqueName('q') };
    const queue = createDeliveryQueue({ ...base, attemptDelaysMs: [0, 10, 10, 10, 10, 10] });
    const bad = {
      short: { id: 'ch_short', url: inboxChannel().url, secret: 'short' },
      http: { id: 'ch_http', url: 'http://hooks.example.com/', secret: SECRET },
    };
    const reported: string[] = [];
    const worker = createDeliveryWorker({
      ...base,
      channels: (id) => Object.values(bad).find((channel) => channel.id === id),
      onError: (error) => reported.push(error.message),
    });
    bed.closeAfterTest(queue, worker);
    for (const channel of Object.values(bad)) {
      const alert = sampleAlert();
      await queue.enqueue(channel.id, alert);
      await waitForParkedRecord(queue, channel.id);
      const history = await queue.getAlertHistory(alert.id);
      const attempts = history.filter((entry) => entry.kind === 'attempt');
      expect(attempts).toHaveLength(6);
      expect(attempts.every((entry) => entry.cause === 'invalid_channel')).toBe(true);
      expect(history.at(-1)).toMatchObject({ kind: 'parked', reason: 'invalid_channel' });
      // Six attempts, more than the five that disable: none was counted as the receiver's failure.
      expect(await queue.getChannelState(channel.id)).toEqual({
        consecutiveFailures: 0,
        disabled: false,
      });
    }
    expect(reported.some((message) => /ch_short.*secret/.test(message))).toBe(true);
    expect(reported.some((message) => /ch_http.*url/.test(message))).toBe(true);
    expect(reported.join('\n')).not.toContain(SECRET);
  });

  it('parks (worker_error) a job whose workers die under it more than maxStalledCount times', async () => {
    // A receiver that accepts and never answers: each worker is killed mid-delivery.
    const sockets: Socket[] = [];
    const hole = createNetServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => hole.listen(0, '127.0.0.1', resolve));
    const { port } = hole.address() as AddressInfo;
    const channel = {
      id: bed.uniqueName('hole-'),
      url: `http://127.0.0.1:${port}/`,
      secret: SECRET,
    };
    channels.set(channel.id, channel);
    const base = { connection: bed.redis.url, queueName: bed.uniqueName('q') };
    const queue = createDeliveryQueue({ ...base, attemptDelaysMs: [0] });
    bed.closeAfterTest(queue);
    const admin = new Redis(bed.redis.url);
    try {
      const alert = sampleAlert();
      await queue.enqueue(channel.id, alert);
      const options = { redisUrl: bed.redis.url, queueName: base.queueName, channels: [channel] };
      for (const stall of [1, 2]) {
        const child = await startWorkerProcess({
          ...options,
          lockDurationMs: 400,
          maxStalledCount: 1,
        });
        await waitFor(`delivery attempt ${stall}`, () => sockets.length === stall);
        await stopWorkerProcess(child, 'SIGKILL');
      }
      // The second stall is one too many: BullMQ fails the job instead of running it, and it is parked.
      const worker = createDeliveryWorker({
        ...base,
        channels: bed.lookup,
        lockDurationMs: 400,
        stalledIntervalMs: 100,
        maxStalledCount: 1,
        sender: { dangerouslyAllowLoopback: true },
      });
      bed.closeAfterTest(worker);
      await waitForParkedRecord(queue, channel.id);
      expect((await queue.getHistory(channel.id)).entries[0]).toMatchObject({
        kind: 'parked',
        reason: 'worker_error',
        alertId: alert.id,
      });
      expect(await queue.countParked(channel.id)).toBe(1);
      await waitFor('the queue to drain', () => queueDrained(queue));
      expect(await queue.getCounts()).toMatchObject({ failed: 0, parked: 1 });
      expect(sockets).toHaveLength(2);
      // BullMQ's own stall limit failed it; its 'failed' event parked it and took it out of the set.
      const [eventsKey] = await admin.keys(`cspwatch:{*}:${base.queueName}:events`);
      const events = await admin.xrange(eventsKey ?? '', '-', '+');
      expect(events.filter(([, fields]) => fields[1] === 'failed')).toHaveLength(1);
    } finally {
      admin.disconnect();
      for (const socket of sockets) socket.destroy();
      hole.close();
    }
  });

  it('keeps the secret out of the history even when the receiver echoes it', async () => {
    const echo: Server = createServer((_request, response) => {
      response.writeHead(400).end(`bad request; your secret is ${SECRET}!`);
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const { port } = echo.address() as { port: number };
    const channel = {
      id: bed.uniqueName('echo-'),
      url: `http://127.0.0.1:${port}/`,
      secret: SECRET,
    };
    channels.set(channel.id, channel);
    try {
      const { queue } = setup({ attemptDelaysMs: [0] });
      await queue.enqueue(channel.id, sampleAlert());
      await waitForParkedRecord(queue, channel.id);
      const history = await allHistory(queue, channel.id);
      expect(history.length).toBeGreaterThan(0);
      expect(JSON.stringify(history)).not.toContain(SECRET);
      expect(history[1]).toMatchObject({ kind: 'attempt', status: 400 });
      expect((history[1] as DeliveryAttemptEntry).responseExcerpt).toBe(
        'bad request; your secret is [redacted]!',
      );
    } finally {
      echo.close();
    }
  });

  it('keeps the Test action (sender.sendTest on the shared store) out of the queue and the count', async () => {
    const { queue } = setup({ attemptDelaysMs: [0] }); // one attempt, then parked: the count stays put
    const channel = inboxChannel(500);
    const client = new Redis(bed.redis.url);
    const sender = createWebhookSender({
      store: createRedisChannelStateStore({ redis: client }),
      dangerouslyAllowLoopback: true,
    });
    try {
      await queue.enqueue(channel.id, sampleAlert());
      await waitFor(
        'one failed attempt',
        async () => (await queue.getChannelState(channel.id)).consecutiveFailures === 1,
      );
      const test = await sender.sendTest(channel);
      expect(test).toMatchObject({ ok: false, status: 500, test: true, consecutiveFailures: 1 });
      expect(await queue.getChannelState(channel.id)).toMatchObject({ consecutiveFailures: 1 });
      const history = await allHistory(queue, channel.id);
      expect(history.some((e) => e.alertId === test.alertId)).toBe(false);
    } finally {
      await sender.close();
      client.disconnect();
    }
  });

  /** A queue and worker with these history limits, on a fresh queue name. */
  function withHistory(history: { maxEntries?: number; maxAgeMs?: number }) {
    const base = { connection: bed.redis.url, queueName: bed.uniqueName('q'), history };
    const queue = createDeliveryQueue({ ...base, attemptDelaysMs: [0] });
    const worker = createDeliveryWorker({
      ...base,
      channels: bed.lookup,
      sender: { dangerouslyAllowLoopback: true },
    });
    bed.closeAfterTest(queue, worker);
    return queue;
  }

  it('keeps at most history.maxEntries per channel, newest first across pages', async () => {
    const queue = withHistory({ maxEntries: 3 });
    const channel = inboxChannel();
    const alerts = Array.from({ length: 5 }, () => sampleAlert());
    for (const alert of alerts) {
      await queue.enqueue(channel.id, alert);
      await waitFor('its record', async () =>
        (await queue.getHistory(channel.id)).entries.some((entry) => entry.alertId === alert.id),
      );
    }
    const first = await queue.getHistory(channel.id, { limit: 2 });
    const second = await queue.getHistory(channel.id, { limit: 2, cursor: first.nextCursor });
    const newestFirst = alerts.map((alert) => alert.id).reverse();
    expect([...first.entries, ...second.entries].map((e) => e.alertId)).toEqual(
      newestFirst.slice(0, 3),
    );
    expect(second.nextCursor).toBeNull();
  });

  it('drops history older than history.maxAgeMs', async () => {
    const queue = withHistory({ maxAgeMs: 3_000 }); // room to see the record on a slow machine
    const channel = inboxChannel();
    await queue.enqueue(channel.id, sampleAlert());
    await waitFor(
      'the record',
      async () => (await queue.getHistory(channel.id)).entries.length === 1,
    );
    await waitFor(
      'the record to age out',
      async () => (await queue.getHistory(channel.id)).entries.length === 0,
      10_000,
    );
  });

  it('refuses bad input with invalid_input', async () => {
    const { queue } = setup();
    const circular: Record<string, unknown> = { ...sampleAlert() };
    circular.self = circular;
    for (const [channelId, alert] of [
      ['', sampleAlert()],
      ['ch', circular],
      ['ch', {}],
      ['ch', null],
    ] as const) {
      const error = await queue
        .enqueue(channelId, alert as never)
        .catch((caught: unknown) => caught);
      expect(isCspwatchRedisError(error) && error.code).toBe('invalid_input');
    }
    const error = await queue
      .getHistory('ch', { cursor: 'not-a-cursor' })
      .catch((caught: unknown) => caught);
    expect(isCspwatchRedisError(error) && error.code).toBe('invalid_input');
  });
});

describe('options', () => {
  const invalid = [
    [{}, 'connection'],
    [{ connection: 42 }, 'connection'],
    [{ connection: 'http://localhost' }, 'connection'],
    [{ connection: 'redis://127.0.0.1:1', attemptDelaysMs: [0, -5] }, 'attemptDelaysMs.1'],
    [{ connection: 'redis://127.0.0.1:1', attemptDelaysMs: [] }, 'attemptDelaysMs'],
    [{ connection: 'redis://127.0.0.1:1', history: { maxEntries: 0 } }, 'history.maxEntries'],
    [{ connection: 'redis://127.0.0.1:1', history: { maxAgeMs: 0 } }, 'history.maxAgeMs'],
    [{ connection: 'redis://127.0.0.1:1', jitter: 2 }, 'jitter'],
    [{ connection: 'redis://127.0.0.1:1', queueName: 'a:b' }, 'queueName'],
    [{ connection: 'redis://127.0.0.1:1', retries: 3 }, 'retries'],
  ] as const;
  it.each(invalid)('createDeliveryQueue(%j) fails at construction on %s', (options, path) => {
    const error = (() => {
      try {
        createDeliveryQueue(options as never);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(isCspwatchRedisError(error) && error.code).toBe('invalid_options');
    expect(isCspwatchRedisError(error) && error.issues.map((issue) => issue.path)).toContain(path);
  });

  it('says what to fix: the value when it is a number, the key a typo meant, a code per issue', () => {
    const error = (() => {
      try {
        createDeliveryQueue({
          connection: 'redis://127.0.0.1:1',
          shards: 0,
          queueNme: 'q',
        } as never);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(isCspwatchRedisError(error) && error.issues).toEqual([
      { path: 'shards', code: 'out_of_range', message: 'must be an integer from 1 to 256, got 0' },
      {
        path: 'queueNme',
        code: 'unknown_option',
        message: 'unknown option (did you mean `queueName`?)',
      },
    ]);
    expect(error).toBeInstanceOf(CspwatchRedisError);
  });

  it('createDeliveryWorker needs a channel lookup and sane timings', () => {
    for (const [options, path] of [
      [{ connection: 'redis://127.0.0.1:1' }, 'channels'],
      [
        { connection: 'redis://127.0.0.1:1', channels: () => undefined, concurrency: 0 },
        'concurrency',
      ],
      [
        { connection: 'redis://127.0.0.1:1', channels: () => undefined, lockDurationMs: -1 },
        'lockDurationMs',
      ],
      [
        { connection: 'redis://127.0.0.1:1', channels: () => undefined, sender: { store: {} } },
        'sender.store',
      ],
    ] as const) {
      expect(() => createDeliveryWorker(options as never)).toThrow(
        new RegExp(`createDeliveryWorker: .*${path.replace('.', '\\.')}`),
      );
    }
  });
});

describe('when Redis is down', () => {
  it('a worker reports the lost connection through onError, reconnects and carries on', async () => {
    const down = await startRedisServer();
    const errors: Error[] = [];
    const base = { connection: down.url, queueName: 'reconnect', attemptDelaysMs: [0] };
    const queue = createDeliveryQueue({ ...base, commandTimeoutMs: 2_000 });
    const worker = createDeliveryWorker({
      connection: down.url,
      queueName: 'reconnect',
      channels: bed.lookup,
      sender: { dangerouslyAllowLoopback: true },
      onError: (error) => errors.push(error),
    });
    bed.closeAfterTest({ close: () => down.stop() }, queue, worker);
    await worker.waitUntilReady();
    const channel = inboxChannel();
    await down.crash();
    await waitFor('onError to hear of it', () => errors.length > 0, 15_000);
    expect(errors[0]).toBeInstanceOf(Error);
    await down.start();
    await waitFor(
      'the enqueue to go through',
      () =>
        queue.enqueue(channel.id, sampleAlert()).then(
          () => true,
          () => false,
        ),
      15_000,
    );
    await waitFor(
      'the delivery after the restart',
      () => bed.mock.service.inbox.deliveries(channel.id).length === 1,
      20_000,
    );
  });

  it('enqueue fails fast with redis_unavailable, and works again once Redis is back', async () => {
    const down = await startRedisServer();
    const queue = createDeliveryQueue({
      connection: down.url,
      commandTimeoutMs: 500,
      queueName: 'down',
    });
    bed.closeAfterTest(queue, { close: () => down.stop() });
    await queue.enqueue('ch', sampleAlert());
    await down.crash();
    const started = Date.now();
    const error = await queue.enqueue('ch', sampleAlert()).catch((caught: unknown) => caught);
    expect(isCspwatchRedisError(error) && error.code).toBe('redis_unavailable');
    expect((error as Error).message).toMatch(/Redis is unreachable/);
    expect(Date.now() - started).toBeLessThan(5_000);
    await down.start();
    await waitFor(
      'enqueue to work again',
      () =>
        queue.enqueue('ch', sampleAlert()).then(
          () => true,
          () => false,
        ),
      15_000,
    );
  });
});
