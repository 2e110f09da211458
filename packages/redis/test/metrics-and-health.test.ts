import { healthHandler } from '@cspwatch/redis/health';
import { queueMetrics } from '@cspwatch/redis/metrics';
import {
  createDeliveryQueue,
  createDeliveryWorker,
  type DeliveryOutcomeEvent,
  type DeliveryWorkerHealth,
  isCspwatchRedisError,
} from '@cspwatch/redis/queue';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { sampleAlert } from './helpers/alerts';
import { serveFetchHandler } from './helpers/fetch-server';
import { checkMetrics } from './helpers/promtool';
import { queueTestBed } from './helpers/queue-test-bed';
import { startRedisServer } from './helpers/redis-server';
import { waitFor } from './helpers/wait-for';

const SECRET = 'whsec_metrics-test-secret-0123456789';
const bed = queueTestBed(SECRET);
const { inboxChannel } = bed;

/** A queue, its metrics on a new registry, a worker feeding them, and the health handler served. */
async function setup(options: { channelLabel?: boolean; connection?: string } = {}) {
  const base = { connection: options.connection ?? bed.redis.url, queueName: bed.uniqueName('m') };
  // One attempt per alert: a failure is parked as retries_exhausted at once.
  const queue = createDeliveryQueue({ ...base, attemptDelaysMs: [0] });
  const registry = new Registry();
  const metrics = queueMetrics({
    registry,
    queue,
    ...(options.channelLabel ? { channelLabel: true } : {}),
  });
  const errors: Error[] = [];
  const worker = createDeliveryWorker({
    ...base,
    channels: bed.lookup,
    concurrency: 8,
    sender: { dangerouslyAllowLoopback: true, timeoutMs: 5_000 },
    observer: metrics.observer,
    onError: (error) => errors.push(error),
  });
  const server = await serveFetchHandler(healthHandler({ worker, registry }));
  bed.closeAfterTest(queue, worker, server);
  await worker.waitUntilReady();
  const scrape = async () => {
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(registry.contentType);
    return parseSamples(await response.text());
  };
  const healthz = async () => {
    const response = await fetch(`${server.url}/healthz`);
    return { status: response.status, health: (await response.json()) as DeliveryWorkerHealth };
  };
  return { queue, worker, registry, server, scrape, healthz, errors };
}

/** One sample of a scrape: name, labels, value. */
interface Sample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}

/** Parses the Prometheus text format (label values here never hold `"` or `,`). */
function parseSamples(text: string) {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').split(',').filter(Boolean)) {
      const [key, quoted] = pair.split('=') as [string, string];
      labels[key] = quoted.slice(1, -1);
    }
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  /** The value of the sample with exactly these labels, or `undefined`. */
  const value = (name: string, labels: Record<string, string> = {}) =>
    samples.find(
      (sample) =>
        sample.name === name &&
        Object.keys(sample.labels).length === Object.keys(labels).length &&
        Object.entries(labels).every(([key, wanted]) => sample.labels[key] === wanted),
    )?.value;
  return { text, samples, value };
}

type Scrape = ReturnType<typeof parseSamples>;
const parkedTotal = (scrape: Scrape) =>
  scrape.samples
    .filter((s) => s.name === 'cspwatch_deliveries_total' && s.labels.outcome === 'parked')
    .reduce((sum, s) => sum + s.value, 0);
const idle = (scrape: Scrape) =>
  ['waiting', 'active', 'delayed'].every(
    (state) => scrape.value('cspwatch_queue_jobs', { state }) === 0,
  );

describe('queue metrics and worker health', () => {
  it('counts a scripted run exactly: 100 delivered, 5 failed → 1 disabled, 20 parked, 2 discarded', async () => {
    const { queue, scrape, healthz, worker } = await setup();
    const good = inboxChannel();
    const bad = inboxChannel(500);

    await Promise.all(Array.from({ length: 100 }, () => queue.enqueue(good.id, sampleAlert())));
    await waitFor('100 delivered', async () => {
      const s = await scrape();
      return s.value('cspwatch_deliveries_total', { outcome: 'delivered' }) === 100;
    });
    // The fifth consecutive failure disables the channel; the four before it ran out of
    // attempts (one each); the 15 enqueued after it are parked without an attempt.
    await Promise.all(Array.from({ length: 5 }, () => queue.enqueue(bad.id, sampleAlert())));
    await waitFor('5 parked', async () => parkedTotal(await scrape()) === 5);
    await Promise.all(Array.from({ length: 15 }, () => queue.enqueue(bad.id, sampleAlert())));
    await Promise.all([0, 1].map(() => queue.enqueue('ch_deleted', sampleAlert())));
    const final = await waitFor('20 parked, 2 discarded and an idle queue', async () => {
      const s = await scrape();
      const discarded = s.value('cspwatch_deliveries_total', { outcome: 'discarded' });
      return parkedTotal(s) === 20 && discarded === 2 && idle(s) ? s : undefined;
    });

    const deliveries = (labels: Record<string, string>) =>
      final.value('cspwatch_deliveries_total', labels);
    expect(deliveries({ outcome: 'delivered' })).toBe(100);
    expect(deliveries({ outcome: 'failed', reason: 'http_status' })).toBe(5);
    expect(deliveries({ outcome: 'parked', reason: 'retries_exhausted' })).toBe(4);
    expect(deliveries({ outcome: 'parked', reason: 'channel_disabled' })).toBe(16);
    expect(deliveries({ outcome: 'discarded' })).toBe(2);
    expect(final.value('cspwatch_channel_disables_total')).toBe(1);
    expect(final.value('cspwatch_disabled_channels')).toBe(1);
    expect(final.value('cspwatch_queue_jobs', { state: 'parked' })).toBe(20);
    const attempts = 'cspwatch_delivery_attempt_duration_seconds_count';
    expect(final.value(attempts, { outcome: 'delivered' })).toBe(100);
    expect(final.value(attempts, { outcome: 'failed' })).toBe(5);
    expect(final.value('cspwatch_delivery_lag_seconds_count')).toBe(100);
    const lagSum = final.value('cspwatch_delivery_lag_seconds_sum') ?? 0;
    expect(lagSum).toBeGreaterThan(0);
    // Buckets are cumulative: the +Inf bucket holds every observation.
    expect(final.value('cspwatch_delivery_lag_seconds_bucket', { le: '+Inf' })).toBe(100);
    // Bounded labels: no alert id, no URL, no channel id.
    expect(final.text).not.toContain(good.id);
    expect(final.text).not.toContain(bad.id);
    expect(final.text).not.toContain('127.0.0.1');

    // Prometheus's own linter accepts the scrape.
    expect(await checkMetrics(final.text)).toEqual({ code: 0, output: '' });

    const ready = await waitFor('no job in flight', async () => {
      const answer = await healthz();
      return answer.health.inFlight === 0 ? answer : undefined;
    });
    expect(ready.status).toBe(200);
    expect(ready.health).toMatchObject({
      ok: true,
      closing: false,
      connected: { jobs: true, state: true },
      inFlight: 0,
      shards: { total: 1, running: 1 },
    });
    expect(Date.parse(ready.health.lastSuccessAt ?? '')).toBeGreaterThan(Date.now() - 600_000);

    // Fixed and re-enabled: the 20 parked alerts are delivered, the gauges go back to 0.
    bed.mock.service.inbox.setResponse(bad.id, { status: 200 });
    expect(await queue.enableChannel(bad.id)).toEqual({ released: 20 });
    const after = await waitFor('120 delivered and an idle queue', async () => {
      const s = await scrape();
      const delivered = s.value('cspwatch_deliveries_total', { outcome: 'delivered' });
      return delivered === 120 && idle(s) ? s : undefined;
    });
    expect(after.value('cspwatch_disabled_channels')).toBe(0);
    expect(after.value('cspwatch_queue_jobs', { state: 'parked' })).toBe(0);
    expect(after.value('cspwatch_channel_disables_total')).toBe(1);

    await worker.close();
    const closed = await healthz();
    expect(closed.status).toBe(503);
    expect(closed.health).toMatchObject({ ok: false, closing: true });
  });

  it('labels series by channel only when channelLabel is set', async () => {
    const { queue, scrape } = await setup({ channelLabel: true });
    const first = inboxChannel();
    const second = inboxChannel();
    await queue.enqueue(first.id, sampleAlert());
    await queue.enqueue(second.id, sampleAlert());
    await queue.enqueue(second.id, sampleAlert());
    const s = await waitFor('3 delivered', async () => {
      const scraped = await scrape();
      const total = scraped.samples
        .filter((x) => x.name === 'cspwatch_deliveries_total')
        .reduce((sum, x) => sum + x.value, 0);
      return total === 3 ? scraped : undefined;
    });
    const delivered = (channel: string) =>
      s.value('cspwatch_deliveries_total', { outcome: 'delivered', channel });
    expect(delivered(first.id)).toBe(1);
    expect(delivered(second.id)).toBe(2);
    expect(s.value('cspwatch_delivery_lag_seconds_count', { channel: second.id })).toBe(2);
    expect(await checkMetrics(s.text)).toEqual({ code: 0, output: '' });
  });

  it('answers /livez, 404 and 405 as documented', async () => {
    const { server, registry } = await setup();
    expect((await fetch(`${server.url}/livez`)).status).toBe(200);
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
    const post = await fetch(`${server.url}/healthz`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const handle = healthHandler({ worker: { health: () => ({}) as DeliveryWorkerHealth } });
    const noRegistry = await handle(new Request('http://x/metrics'));
    expect(noRegistry.status).toBe(404);
    expect(registry.contentType).toContain('text/plain');
  });

  it('reports a lost Redis: /healthz 503, /livez still 200, and the gauges without a figure', async () => {
    const own = await startRedisServer();
    let down = false;
    try {
      const { server, scrape, healthz } = await setup({ connection: own.url });
      expect((await healthz()).status).toBe(200);
      await own.crash();
      down = true;
      // The first 503 may come while one of the two connections has not noticed yet.
      await waitFor('/healthz to answer 503 with both connections down', async () => {
        const answer = await healthz();
        const { jobs, state } = answer.health.connected;
        return answer.status === 503 && !jobs && !state;
      });
      expect((await fetch(`${server.url}/livez`)).status).toBe(200);
      const s = await scrape(); // the scrape still answers, within the queue's command timeout
      expect(s.samples.some((x) => x.name === 'cspwatch_queue_jobs')).toBe(false);
      expect(s.value('cspwatch_disabled_channels')).toBeNaN();
      expect(s.value('cspwatch_deliveries_total', { outcome: 'delivered' })).toBe(0);
      expect(await checkMetrics(s.text)).toEqual({ code: 0, output: '' });
      await own.start();
      down = false;
      await waitFor('/healthz to answer 200 again', async () => (await healthz()).status === 200);
    } finally {
      if (down) await own.start(); // the worker closes against a live Redis
      await bed.closeAll();
      await own.stop();
    }
  });

  it('reports a throwing observer to onError and delivers anyway', async () => {
    const base = { connection: bed.redis.url, queueName: bed.uniqueName('m') };
    const queue = createDeliveryQueue(base);
    const seen: DeliveryOutcomeEvent[] = [];
    const errors: Error[] = [];
    const worker = createDeliveryWorker({
      ...base,
      channels: bed.lookup,
      sender: { dangerouslyAllowLoopback: true },
      observer: (event) => {
        seen.push(event);
        throw new Error('observer broke');
      },
      onError: (error) => errors.push(error),
    });
    bed.closeAfterTest(queue, worker);
    const channel = inboxChannel();
    await queue.enqueue(channel.id, sampleAlert());
    await waitFor('the delivered event', () => seen.length === 1);
    expect(seen[0]).toMatchObject({ outcome: 'delivered', channelId: channel.id });
    expect(bed.mock.service.inbox.deliveries(channel.id)).toHaveLength(1);
    expect(errors.map((error) => error.message)).toEqual(['observer broke']);
  });

  it('refuses bad options with a typed error that names the option', () => {
    const bad = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        if (isCspwatchRedisError(error)) return { code: error.code, issues: error.issues };
        throw error;
      }
      throw new Error('did not throw');
    };
    expect(bad(() => queueMetrics({ registry: {} as Registry }))).toMatchObject({
      code: 'invalid_options',
      issues: [{ path: 'registry' }],
    });
    expect(
      bad(() => queueMetrics({ channelLabel: 'yes' as unknown as boolean, queue: {} as never })),
    ).toMatchObject({
      code: 'invalid_options',
      issues: [{ path: 'queue' }, { path: 'channelLabel' }],
    });
    expect(
      bad(() =>
        createDeliveryWorker({
          connection: bed.redis.url,
          channels: () => undefined,
          observer: 'metrics' as never,
        }),
      ),
    ).toMatchObject({ code: 'invalid_options', issues: [{ path: 'observer' }] });
    // Without a registry, a new one is made: two calls do not collide.
    expect(queueMetrics().registry).not.toBe(queueMetrics().registry);
  });
});
