/**
 * The multi-process runs: 4 worker processes on one real `redis-server` (AOF, fsync always)
 * deliver 640 to 1,200 alerts to the mock inbox on loopback, under one fault per test. Each run
 * is judged by counts taken at both ends: delivered (the inbox's verified 2xx answers per alert
 * id), duplicates (an alert answered 2xx more than once on a channel), lost (an alert neither
 * delivered nor parked; always 0), parked by reason, history attempts against the requests the
 * receivers got, and `getAlertHistory` of a sample of alerts against the inbox.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type MockServer, startMockServer } from '@cspwatch/mock-server';
import {
  createDeliveryQueue,
  type DeliveryHistoryEntry,
  type DeliveryQueue,
  isCspwatchRedisError,
} from '@cspwatch/redis/queue';
import type { DeliveryChannel } from '@cspwatch/webhook-sender';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';
import { sampleAlert } from './helpers/alerts';
import {
  type ChannelTally,
  checkAlertHistories,
  everyHistoryEntry,
  fromInbox,
  type ReceivedRequests,
  requestsOnly,
  type SampleAgreement,
  sampleOf,
  tallyChannel,
} from './helpers/fleet-tally';
import {
  closedPort,
  type FlakyProxy,
  type HangingServer,
  startFlakyProxy,
  startHangingServer,
} from './helpers/receivers';
import { type RedisServerHandle, startRedisServer } from './helpers/redis-server';
import { waitFor } from './helpers/wait-for';
import {
  createWorkerFleet,
  type WorkerFleet,
  type WorkerProcessOptions,
} from './helpers/worker-fleet';

const SECRET = 'whsec_fleet-secret-0123456789';
/** 7 characters: one short of what a signing secret needs. */
const SHORT_SECRET = 'Xq7#zP1';
const WORKERS = 4;
/** Deliveries per worker process: 4 × 8 = the 8 channels' 4 slots each, in most runs. */
const CONCURRENCY = 8;
/** `maxInFlightPerChannel` (the default, given explicitly). */
const CAP = 4;
/** Attempts per alert before it is parked as retries_exhausted. */
const SCHEDULE = [0, 20, 50, 100, 200];
/** A channel is disabled by this many consecutive failures (the sender's rule). */
const FAILURES_TO_DISABLE = 5;
const DEADLINE = 90_000;
/** Alerts per run of the SIGKILL and Redis crash scenarios. */
const ALERTS = 800;

let redis: RedisServerHandle;
let mock: MockServer;
/** Requests the mock inbox answered, per channel id. */
const answered = new Map<string, number>();
/** Closed in reverse order after each test, failed or not. */
const open: { close(): Promise<void> }[] = [];
let run = 0;

beforeAll(async () => {
  // AOF on, so a crash keeps every acknowledged write; never rewritten, so the AOF holds every
  // write of the file (the malformed-alert run reads it).
  [redis, mock] = await Promise.all([
    startRedisServer({
      persistent: true,
      extraArgs: ['--auto-aof-rewrite-percentage', '0'],
    }),
    // Answered inbox requests counted as they go: cheaper to poll than copying the deliveries.
    startMockServer({
      onRequest: ({ method, path }) => {
        if (method !== 'POST' || !path.startsWith('/inbox/')) return;
        const channelId = path.slice('/inbox/'.length);
        answered.set(channelId, (answered.get(channelId) ?? 0) + 1);
      },
    }),
  ]);
});
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close().catch(() => {});
});
afterAll(async () => {
  await mock?.close();
  await redis?.stop();
});

/**
 * What a channel's endpoint does: answers 2xx, answers 500, accepts and never answers, refuses
 * the connection, answers 500 to 30 % of requests; or the channel's own configuration is
 * unusable (a secret too short, an http:// URL to a public host).
 */
type Kind = 'healthy' | 'answers500' | 'hangs' | 'refuses' | 'flaky' | 'bad-secret' | 'bad-url';

/** Where an alert of each kind of channel ends up, when it is not delivered. */
const PARKED_AS: Record<Kind, string | null> = {
  healthy: null,
  flaky: null,
  answers500: 'channel_disabled',
  hangs: 'channel_disabled',
  refuses: 'channel_disabled',
  'bad-secret': 'invalid_channel',
  'bad-url': 'invalid_channel',
};

/** `count` healthy channels. */
const healthy = (count: number): Kind[] => Array.from({ length: count }, () => 'healthy');

/** Kinds whose receiver sees every request of every alert. */
const RECEIVER_SEES_ALERTS = new Set<Kind>(['healthy', 'answers500', 'flaky']);

interface FleetChannel {
  readonly kind: Kind;
  readonly channel: DeliveryChannel;
  /** Ids of the alerts `enqueue` accepted for it. */
  readonly sent: string[];
  received(): ReceivedRequests;
}

interface FleetRun {
  readonly queue: DeliveryQueue;
  readonly fleet: WorkerFleet;
  readonly channels: readonly FleetChannel[];
  readonly hang: HangingServer | undefined;
  readonly proxy: FlakyProxy | undefined;
}

/** Creates the receivers and channels of `kinds`, a queue and 4 worker processes. */
async function startRun(
  kinds: readonly Kind[],
  workerOptions: Partial<WorkerProcessOptions> = {},
): Promise<FleetRun> {
  const queueName = `fleet-${++run}`;
  const hang = kinds.includes('hangs') ? await startHangingServer() : undefined;
  if (hang) open.push(hang);
  const proxy = kinds.includes('flaky') ? await startFlakyProxy(mock.url, 0.3) : undefined;
  if (proxy) open.push(proxy);
  const refusedPort = await closedPort();
  const inbox = mock.service.inbox;
  const channels = kinds.map((kind, index): FleetChannel => {
    const status = kind === 'answers500' ? 500 : 200;
    const { id, url } = inbox.createChannel({ secret: SECRET, response: { status } });
    const fromOwnInbox = () => fromInbox(inbox.deliveries(id));
    const sent: string[] = [];
    switch (kind) {
      case 'healthy':
      case 'answers500':
        return { kind, sent, channel: { id, url, secret: SECRET }, received: fromOwnInbox };
      case 'bad-secret':
        return { kind, sent, channel: { id, url, secret: SHORT_SECRET }, received: fromOwnInbox };
      case 'flaky': {
        const refused = () => proxy!.refused.filter((r) => r.channelId === id);
        return {
          kind,
          sent,
          channel: { id, url: proxy!.urlFor(id), secret: SECRET },
          received: () =>
            fromInbox(
              inbox.deliveries(id),
              refused().map((r) => r.alertId),
            ),
        };
      }
      case 'hangs':
        return {
          kind,
          sent,
          channel: { id: `hangs-${run}-${index}`, url: hang!.url, secret: SECRET },
          received: () => requestsOnly(hang!.stats().requests),
        };
      case 'refuses':
        return {
          kind,
          sent,
          channel: {
            id: `refuses-${run}-${index}`,
            url: `http://127.0.0.1:${refusedPort}/hook`,
            secret: SECRET,
          },
          received: () => requestsOnly(0),
        };
      default: // 'bad-url'
        return {
          kind,
          sent,
          channel: {
            id: `bad-url-${run}-${index}`,
            url: 'http://hooks.example.com/',
            secret: SECRET,
          },
          received: () => requestsOnly(0), // refused as written: not even a DNS lookup
        };
    }
  });
  const queue = createDeliveryQueue({
    connection: redis.url,
    queueName,
    attemptDelaysMs: SCHEDULE,
    jitter: 0.2,
    commandTimeoutMs: 10_000,
    history: { maxEntries: 100_000 },
  });
  open.push(queue);
  const options: WorkerProcessOptions = {
    redisUrl: redis.url,
    queueName,
    channels: channels.map((c) => c.channel),
    concurrency: CONCURRENCY,
    maxInFlightPerChannel: CAP,
    senderTimeoutMs: 10_000,
    ...workerOptions,
  };
  const fleet = createWorkerFleet(options);
  open.push(fleet);
  await fleet.start(WORKERS);
  return { queue, fleet, channels, hang, proxy };
}

/** Enqueues `count` fresh alerts round-robin over the channels, 100 at a time. */
async function enqueueAlerts(fleetRun: FleetRun, count: number, from = 0): Promise<void> {
  const { queue, channels } = fleetRun;
  for (let start = 0; start < count; start += 100) {
    const batch = Array.from({ length: Math.min(100, count - start) }, (_, index) => ({
      target: channels[(from + start + index) % channels.length]!,
      alert: sampleAlert(),
    }));
    await Promise.all(
      batch.map(async ({ target, alert }) => {
        await queue.enqueue(target.channel.id, alert);
        target.sent.push(alert.id);
      }),
    );
  }
}

async function drained(queue: DeliveryQueue): Promise<boolean> {
  const counts = await queue.getCounts();
  return counts.waiting + counts.active + counts.delayed === 0;
}

/** Requests the mock inbox answered for the run's channels so far. */
const inboxRequests = (fleetRun: FleetRun) =>
  fleetRun.channels.reduce((sum, { channel }) => sum + (answered.get(channel.id) ?? 0), 0);

interface Tallied extends FleetChannel {
  readonly tally: ChannelTally;
  readonly history: readonly DeliveryHistoryEntry[];
  readonly sample: SampleAgreement;
}

/** Tallies every channel (and a sample of 20 alerts each), and prints the counts. */
async function tallyRun(fleetRun: FleetRun, label: string): Promise<Tallied[]> {
  const tallied: Tallied[] = [];
  for (const fleetChannel of fleetRun.channels) {
    const { channel, sent, kind } = fleetChannel;
    const received = fleetChannel.received();
    const history = await everyHistoryEntry(fleetRun.queue, channel.id);
    const tally = await tallyChannel(fleetRun.queue, channel.id, sent, received, history);
    const ids = sampleOf(sent, 20, [...tally.duplicateIds, ...tally.releasedIds.slice(0, 10)]);
    const sample = await checkAlertHistories(
      fleetRun.queue,
      channel.id,
      ids,
      received,
      history,
      RECEIVER_SEES_ALERTS.has(kind),
    );
    tallied.push({ ...fleetChannel, tally, history, sample });
  }
  const rows = tallied.map(({ kind, tally, sample }) => ({
    kind,
    sent: tally.sent,
    delivered: tally.delivered,
    dup: tally.duplicates,
    timeouts: tally.timedOutIds.length,
    lost: tally.lost,
    parked: JSON.stringify(tally.parked),
    attempts: tally.attempts,
    problems: JSON.stringify(tally.problems),
    requests: tally.requests,
    disabledNow: tally.disabledNow,
    released: tally.released,
    slowestMs: tally.slowestAttemptMs,
    sampled: sample.checked,
  }));
  console.log(`${label}\n${rows.map((row) => JSON.stringify(row)).join('\n')}`);
  return tallied;
}

/**
 * The counts every run must show, per channel kind. `cut` is how many attempts the fault may
 * have cut after the receiver got the request (0 unless worker processes were killed): each can
 * leave a request without its history entry, and be repeated (a duplicate). A duplicate is
 * also explained by a recorded timeout of the same alert (the receiver answered after the
 * sender gave up: at-least-once, the receiver's idempotency case); any other is counted.
 */
function expectCounts(tallied: readonly Tallied[], cut: number) {
  let duplicates = 0;
  let explained = 0;
  let unrecorded = 0;
  for (const { kind, tally, sample, history } of tallied) {
    const where = `${kind} channel`;
    const timedOut = new Set(tally.timedOutIds);
    const unexplained = tally.duplicateIds.filter((id) => !timedOut.has(id));
    duplicates += unexplained.length;
    explained += tally.duplicates - unexplained.length;
    expect(tally.unverified, `${where}: unverified requests`).toBe(0);
    expect(tally.strangers, `${where}: 2xx for alerts never sent to it`).toBe(0);
    expect(tally.lostIds, `${where}: lost alerts`).toEqual([]);
    expect(tally.countParked, `${where}: countParked vs parked in history`).toBe(
      Object.values(tally.parked).reduce((a, b) => a + b, 0),
    );
    expect(tally.deliveredAndParked, `${where}: delivered and parked`).toBe(0);
    const seesEachRequest = RECEIVER_SEES_ALERTS.has(kind) || kind === 'hangs';
    if (seesEachRequest) {
      // A request may lack its entry (cut), an entry never lacks its request.
      expect(tally.requests, `${where}: requests vs attempts`).toBeGreaterThanOrEqual(
        tally.attempts,
      );
      unrecorded += tally.requests - tally.attempts;
    }
    expect(sample.unlikeChannelHistory, `${where}: getAlertHistory vs getHistory`).toEqual([]);
    const unlikeInbox = sample.unlikeReceiverOk.filter((id) => !timedOut.has(id));
    if (cut === 0) {
      expect(unlikeInbox, `${where}: getAlertHistory 2xx vs inbox`).toEqual([]);
      expect(sample.unlikeReceiverRequests, `${where}: getAlertHistory vs requests`).toEqual([]);
    } else {
      expect(unlikeInbox.length, `${where}: sampled alerts unlike inbox`).toBeLessThanOrEqual(cut);
    }
    const parkedAs = PARKED_AS[kind];
    if (parkedAs === null) {
      expect(tally.delivered, `${where}: delivered`).toBe(tally.sent);
      expect(tally.parked, `${where}: parked`).toEqual({});
      expect(tally.disabled, `${where}: disabled at the end`).toBe(false);
    } else {
      expect(tally.delivered, `${where}: delivered`).toBe(0);
      expect(tally.parked, `${where}: parked`).toEqual({ [parkedAs]: tally.sent });
    }
    if (kind === 'healthy') {
      expect(tally.disabledNow, `${where}: disabledNow`).toBe(0);
      // Nothing failed but (under load) a timeout.
      const failed = history.filter((e) => e.kind === 'attempt' && !e.ok && e.cause !== 'timeout');
      expect(failed, `${where}: failed attempts`).toEqual([]);
    }
    if (parkedAs === 'channel_disabled') {
      // Disabled exactly once, after 5 failures plus at most the cap already in flight.
      expect(tally.disabled, `${where}: disabled`).toBe(true);
      if (cut === 0) expect(tally.disabledNow, `${where}: disabledNow`).toBe(1);
      // A crash between the count and its record can leave the disabling attempt unrecorded.
      else expect(tally.disabledNow, `${where}: disabledNow`).toBeLessThanOrEqual(1);
      expect(tally.attempts, `${where}: attempts`).toBeGreaterThanOrEqual(
        cut === 0 ? FAILURES_TO_DISABLE : FAILURES_TO_DISABLE - 1,
      );
      expect(tally.attempts, `${where}: attempts`).toBeLessThanOrEqual(FAILURES_TO_DISABLE + CAP);
      expect(tally.problems).toEqual({});
    }
    if (parkedAs === 'invalid_channel') {
      // Every attempt recorded with its cause, none sent, none counted against the channel.
      expect(tally.attempts, `${where}: attempts sent`).toBe(0);
      expect(tally.problems, `${where}: attempts stopped`).toEqual({
        invalid_channel: tally.sent * SCHEDULE.length,
      });
      expect(tally.disabled, `${where}: disabled`).toBe(false);
      expect(tally.disabledNow).toBe(0);
      expect(tally.consecutiveFailures).toBe(0);
    }
  }
  expect(duplicates, 'alerts delivered 2xx more than once (no timeout)').toBeLessThanOrEqual(cut);
  expect(unrecorded, 'requests without a history entry').toBeLessThanOrEqual(cut);
  console.log(
    `duplicates ${duplicates} (+${explained} after a sender timeout), requests without entry ${unrecorded}, bound ${cut}`,
  );
  return { duplicates, explained, unrecorded };
}

describe('a fleet of 4 worker processes on one Redis', () => {
  it(
    'finishes the work with 2 of the 4 workers killed with SIGKILL mid-run',
    async () => {
      const kinds = healthy(6);
      // A shorter sender timeout: the slots the killed workers held come free after it plus the lock.
      const fleetRun = await startRun([...kinds, 'answers500', 'answers500'], {
        senderTimeoutMs: 5_000,
      });
      await enqueueAlerts(fleetRun, ALERTS);
      await waitFor('a third delivered', () => inboxRequests(fleetRun) >= ALERTS / 3, DEADLINE);
      const [first, second] = fleetRun.fleet.running;
      const activeAtKill = (await fleetRun.queue.getCounts()).active;
      await Promise.all([
        fleetRun.fleet.stop(first!, 'SIGKILL'),
        fleetRun.fleet.stop(second!, 'SIGKILL'),
      ]);
      expect(fleetRun.fleet.running).toHaveLength(2);
      await waitFor('the 2 survivors to drain the queue', () => drained(fleetRun.queue), DEADLINE);

      // What the two killed processes had in flight: at most their 2 × 8 deliveries, and at
      // most 4 per channel across the fleet. Each may have reached the inbox without its record.
      const cut = Math.min(2 * CONCURRENCY, CAP * fleetRun.channels.length);
      const tallied = await tallyRun(fleetRun, `SIGKILL 2 of 4 (active at kill: ${activeAtKill})`);
      expectCounts(tallied, cut);
      expect((await fleetRun.queue.getCounts()).failed).toBe(0);
    },
    budget(150_000),
  );

  it(
    'loses and repeats nothing when Redis is SIGKILLed mid-run and restarts from its AOF',
    async () => {
      const kinds = healthy(6);
      // A job lock longer than the outage (the default is 30 s): BullMQ then has no stalled job
      // to hand to another worker, so nothing is delivered twice.
      const fleetRun = await startRun([...kinds, 'answers500', 'answers500'], {
        lockDurationMs: 10_000,
      });
      const { queue, fleet } = fleetRun;
      await enqueueAlerts(fleetRun, ALERTS);
      await waitFor('a third delivered', () => inboxRequests(fleetRun) >= ALERTS / 3, DEADLINE);
      const errorsBefore = fleet.errors.length;
      const activeAtCrash = (await queue.getCounts()).active;
      let down = true;
      open.push({ close: () => (down ? redis.start() : Promise.resolve()) }); // should the test fail
      const downAt = Date.now();
      await redis.crash();
      // Down for as long as it takes every worker to notice (a connection error each), no longer.
      await waitFor('every worker to report the outage', () => {
        const pids = new Set(fleet.errors.slice(errorsBefore).map((error) => error.pid));
        return fleet.running.every((child) => pids.has(child.pid));
      });
      const noticedMs = Date.now() - downAt;
      await redis.start(); // resolves once it answers PING: the AOF is loaded
      down = false;
      const downMs = Date.now() - downAt;
      await waitFor('the queue to drain after the restart', () => drained(queue), DEADLINE);

      const tallied = await tallyRun(
        fleetRun,
        `Redis SIGKILL + AOF restart (down ${downMs} ms, noticed after ${noticedMs} ms, active at crash: ${activeAtCrash})`,
      );
      // No worker died and no lock ran out: the counts of a run without a fault. Each record
      // waited for Redis and was written once (an append re-sent after the reconnect is
      // idempotent); each job was delivered by the worker that held it.
      expectCounts(tallied, 0);
      expect((await queue.getCounts()).failed).toBe(0);
    },
    budget(150_000),
  );

  it(
    'disables a channel that answers 500, hangs or refuses exactly once, and parks a misconfigured one as invalid_channel',
    async () => {
      const kinds = healthy(4);
      const failing: Kind[] = ['answers500', 'hangs', 'refuses', 'bad-secret', 'bad-url'];
      // A short sender timeout, so the hanging endpoint costs 2 s per attempt.
      const fleetRun = await startRun([...kinds, ...failing], { senderTimeoutMs: 2_000 });
      await enqueueAlerts(fleetRun, 720); // 80 per channel
      await waitFor('the queue to drain', () => drained(fleetRun.queue), DEADLINE);
      const hang = fleetRun.hang!;
      await waitFor(
        'the hanging requests ended by the sender',
        () => hang.stats().openRequests === 0,
      );
      const tallied = await tallyRun(fleetRun, 'four failing endpoint kinds');
      expectCounts(tallied, 0);

      const byKind = (kind: Kind) => tallied.find((t) => t.kind === kind)!;
      // The hanging endpoint never had more than the cap of requests open at once (whatever
      // spare connections the client opened), and got at most 5 + cap requests before its
      // channel was disabled: each an attempt, each recorded, each a timeout.
      const stats = hang.stats();
      console.log(`hanging endpoint: ${JSON.stringify(stats)}`);
      expect(stats.mostOpenRequests).toBe(CAP); // reached, never passed
      expect(stats.requests).toBeGreaterThanOrEqual(FAILURES_TO_DISABLE);
      expect(stats.requests).toBeLessThanOrEqual(FAILURES_TO_DISABLE + CAP);
      expect(byKind('hangs').tally.attempts).toBe(stats.requests);
      expect(
        byKind('hangs').history.every((e) => e.kind !== 'attempt' || e.cause === 'timeout'),
      ).toBe(true);
      expect(
        byKind('refuses').history.every((e) => e.kind !== 'attempt' || e.cause === 'network'),
      ).toBe(true);
      // The misconfigured channels: the worker's onError heard of every attempt, by channel
      // (reports travel over IPC: wait for them, then count).
      const stopped = byKind('bad-secret').tally.sent * 2 * SCHEDULE.length;
      const unusableReports = () =>
        fleetRun.fleet.errors.filter((error) => error.code === 'channel_unusable');
      await waitFor('every channel_unusable report', () => unusableReports().length >= stopped);
      expect(unusableReports()).toHaveLength(stopped);
      for (const kind of ['bad-secret', 'bad-url'] as const) {
        const { channel, tally } = byKind(kind);
        const reports = unusableReports().filter((error) =>
          error.message.includes(`channel ${channel.id} `),
        );
        expect(reports, `${kind}: onError calls`).toHaveLength(tally.problems.invalid_channel!);
      }
      // No secret in any report or history entry.
      const written = JSON.stringify([fleetRun.fleet.errors, tallied.map((t) => t.history)]);
      expect(written).not.toContain(SECRET);
      expect(written).not.toContain(SHORT_SECRET);
    },
    budget(150_000),
  );

  it(
    'delivers every alert to 30 % flaky endpoints, releasing what a disabled channel parked',
    async () => {
      const flaky: Kind[] = ['flaky', 'flaky', 'flaky', 'flaky', 'flaky', 'flaky'];
      const fleetRun = await startRun([...healthy(2), ...flaky]);
      const { queue, channels } = fleetRun;
      // 150 alerts per channel: about 1,300 attempts on the flaky ones, enough for 5 failures in
      // a row (0.3^5 each time) to disable one of them in most runs.
      await enqueueAlerts(fleetRun, 1_200);
      // Each time the queue drains: re-enable a disabled flaky channel (its alerts were parked),
      // release alerts parked after 5 failed attempts; until nothing is left parked.
      const enabled = new Map<string, number>();
      let rounds = 0;
      await waitFor(
        'every flaky channel enabled with nothing parked',
        async () => {
          if (!(await drained(queue))) return false;
          let settled = true;
          for (const { kind, channel } of channels) {
            if (kind !== 'flaky') continue;
            const state = await queue.getChannelState(channel.id);
            if (state.disabled) {
              enabled.set(channel.id, (enabled.get(channel.id) ?? 0) + 1);
              await queue.enableChannel(channel.id);
              settled = false;
            } else if ((await queue.countParked(channel.id)) > 0) {
              await queue.releaseParked(channel.id);
              settled = false;
            }
          }
          if (!settled) rounds++;
          return settled;
        },
        DEADLINE,
      );
      const tallied = await tallyRun(fleetRun, `30 % flaky (release rounds: ${rounds})`);
      expectCounts(tallied, 0);
      let everParked = 0;
      for (const { kind, channel, tally, history } of tallied) {
        if (kind !== 'flaky') continue;
        // Each disable is one disabledNow entry, and one enableChannel of ours.
        expect(tally.disabledNow, 'disabledNow vs enableChannel calls').toBe(
          enabled.get(channel.id) ?? 0,
        );
        const parkedEntries = history.filter((entry) => entry.kind === 'parked');
        everParked += new Set(parkedEntries.map((entry) => entry.alertId)).size;
        expect(new Set(tally.releasedIds)).toEqual(new Set(parkedEntries.map((e) => e.alertId)));
      }
      // Every alert ever parked came back and was delivered: its own history ends in a 2xx.
      const parkedThenDelivered = tallied.flatMap(({ tally }) => tally.releasedIds);
      for (const alertId of parkedThenDelivered.slice(0, 50)) {
        const entries = await queue.getAlertHistory(alertId);
        expect(entries.map((entry) => entry.kind)).toContain('released');
        expect(entries.at(-1)).toMatchObject({ kind: 'attempt', ok: true });
      }
      console.log(
        `flaky: disables ${JSON.stringify([...enabled.values()])}, alerts ever parked ${everParked}, released-then-delivered ${parkedThenDelivered.length}`,
      );
    },
    budget(150_000),
  );

  it(
    'refuses malformed and oversize alerts offered during the run, writing nothing of theirs, and disables no channel',
    async () => {
      const kinds = healthy(6);
      const fleetRun = await startRun(kinds);
      const { queue, channels } = fleetRun;
      const markers: string[] = []; // the payload id of every refused alert that has one
      const malformed = (): unknown[] => {
        const each = Array.from({ length: 7 }, () => sampleAlert());
        markers.push(...each.map((alert) => alert.id));
        const [base, noWebsite, badCount, extraKey, stringWindow, noFindings, justOver] = each;
        return [
          { id: 'x' },
          null,
          'an alert',
          [base],
          { ...noWebsite, website: undefined },
          { ...badCount, findings: [{ ...badCount!.findings[0], count: -1 }] },
          { ...extraKey, extra: true },
          { ...stringWindow, window: { start: 1, end: 2 } },
          { ...noFindings, findings: [] },
          { ...justOver, rule: 'r'.repeat(256 * 1024) }, // valid, over the 256 KiB cap
        ];
      };
      const refusals: unknown[] = [];
      const offer = async (alert: unknown) => {
        const channel = channels[refusals.length % channels.length]!.channel;
        refusals.push(
          await queue.enqueue(channel.id, alert as never).then(
            () => 'accepted',
            (error: unknown) => error,
          ),
        );
      };
      for (let round = 0; round < 8; round++) {
        await enqueueAlerts(fleetRun, 80, round * 80);
        await Promise.all(malformed().map(offer));
        if (round % 4 === 0) {
          const huge = sampleAlert();
          markers.push(huge.id);
          await offer({ ...huge, rule: 'h'.repeat(20 * 1024 * 1024) }); // 20 MiB
        }
      }
      await waitFor('the queue to drain', () => drained(queue), DEADLINE);
      expect(refusals.length).toBe(8 * 10 + 2);
      for (const refusal of refusals) {
        expect(isCspwatchRedisError(refusal) && refusal.code).toBe('invalid_input');
      }

      const tallied = await tallyRun(fleetRun, 'malformed and oversize alerts offered');
      expectCounts(tallied, 0);
      for (const { tally } of tallied) {
        expect(tally).toMatchObject({ disabled: false, consecutiveFailures: 0, disabledNow: 0 });
        expect(tally.okAttempts).toBe(tally.sent); // not one failed attempt
      }
      // Nothing of theirs in Redis: no key names them, and no write in the AOF (every write
      // since the server started, never rewritten) carries their id; a good alert's id is there.
      const aofDir = join(redis.dir, 'appendonlydir');
      const aof = Buffer.concat(
        readdirSync(aofDir).map((file) => readFileSync(join(aofDir, file))),
      );
      expect(aof.includes(channels[0]!.sent[0]!)).toBe(true);
      expect(markers.filter((marker) => aof.includes(marker))).toEqual([]);
      const admin = new Redis(redis.url);
      try {
        const keys = await admin.keys('*');
        expect(keys.some((key) => key.endsWith(`{${channels[0]!.sent[0]}}`))).toBe(true);
        expect(
          keys.filter((key) => markers.some((m) => key.includes(m)) || key.endsWith('{x}')),
        ).toEqual([]);
      } finally {
        admin.disconnect();
      }
      for (const marker of markers.slice(0, 20)) {
        expect(await queue.getAlertHistory(marker)).toEqual([]);
      }
      console.log(
        `malformed: ${refusals.length} refused, ${markers.length} with an id searched in ${aof.length} AOF bytes`,
      );
    },
    budget(150_000),
  );

  it(
    'repeats and loses nothing through a rolling SIGTERM restart of the 4 workers under steady traffic',
    async () => {
      const kinds = healthy(6);
      // close() may wait up to 20 s for the deliveries in flight: above the sender's 10 s timeout.
      const fleetRun = await startRun([...kinds, 'healthy', 'answers500'], {
        closeTimeoutMs: 20_000,
      });
      const { queue, fleet } = fleetRun;
      // Steady traffic: 20 more alerts whenever fewer than 60 are pending, 200 per restart step;
      // each worker is stopped halfway through its step's alerts, with deliveries in flight.
      const STEP = 200;
      let budget = STEP;
      let enqueued = 0;
      let stopped = false;
      const producer = (async () => {
        while (enqueued < (WORKERS + 1) * STEP && !stopped) {
          await waitFor(
            'room in the budget and the backlog',
            async () => {
              if (stopped) return true;
              if (enqueued >= budget) return false;
              const counts = await queue.getCounts();
              return counts.waiting + counts.delayed + counts.active < 60;
            },
            DEADLINE,
          );
          if (stopped) return;
          await enqueueAlerts(fleetRun, 20, enqueued);
          enqueued += 20;
        }
      })();
      open.push({
        close: async () => {
          stopped = true;
          await producer.catch(() => {});
        },
      });
      const exits: (number | null)[] = [];
      const activeAtStop: number[] = [];
      for (const child of [...fleet.running]) {
        const halfway = budget - STEP / 2;
        await waitFor(
          `${halfway} alerts delivered or parked`,
          async () => {
            const counts = await queue.getCounts();
            return enqueued - (counts.waiting + counts.delayed + counts.active) >= halfway;
          },
          DEADLINE,
        );
        activeAtStop.push((await queue.getCounts()).active);
        exits.push(await fleet.stop(child, 'SIGTERM'));
        await fleet.start(1);
        budget += STEP;
      }
      await producer;
      await waitFor('the queue to drain', () => drained(queue), DEADLINE);
      expect(enqueued).toBe((WORKERS + 1) * STEP);
      expect(exits).toEqual([0, 0, 0, 0]); // each closed cleanly, within closeTimeoutMs
      expect(fleet.running).toHaveLength(WORKERS);
      const tallied = await tallyRun(
        fleetRun,
        `rolling SIGTERM (${enqueued} alerts, deliveries in flight at each stop: ${activeAtStop.join(', ')})`,
      );
      const { duplicates, unrecorded } = expectCounts(tallied, 0);
      expect(duplicates + unrecorded).toBe(0);
    },
    budget(150_000),
  );
});
