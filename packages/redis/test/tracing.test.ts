/**
 * Traces of the queue: one alert reads as one trace from `enqueue` to the receiver's answer,
 * with a real redis-server, an in-process worker and a receiver that answers 503, then 204.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createDeliveryQueue,
  createDeliveryWorker,
  deliveryQueueShards,
} from '@cspwatch/redis/queue';
import type { DeliveryChannel } from '@cspwatch/webhook-sender';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  leakedSecrets,
  type ReadableSpan,
  startTracing,
  type Tracing,
} from '../../../test/helpers/spans';
import { sampleAlert } from './helpers/alerts';
import { type RedisServerHandle, startRedisServer } from './helpers/redis-server';
import { waitFor } from './helpers/wait-for';

const SECRET = 'whsec_tracing-secret-never-in-a-span';
const PATH_TOKEN = 'hook-token-in-path-7c6b5a';
const QUERY_SECRET = 'query-secret-3e2d1c';

let redis: RedisServerHandle;
let tracing: Tracing;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const open: { close(): Promise<void> }[] = [];
let run = 0;

/** Answers each request with the next status of `statuses` (the last one from then on). */
async function startReceiver() {
  const requests: IncomingHttpHeaders[] = [];
  let statuses: number[] = [204];
  const server = createServer((request, response) => {
    request.resume().on('end', () => {
      requests.push(request.headers);
      response.statusCode = statuses.length > 1 ? statuses.shift()! : statuses[0]!;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    requests,
    answer: (next: number[]) => {
      statuses = [...next];
      requests.length = 0;
    },
    channel: (): DeliveryChannel => ({
      id: `ch_${run}`,
      url: `http://127.0.0.1:${port}/hooks/${PATH_TOKEN}?secret=${QUERY_SECRET}`,
      secret: SECRET,
    }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

beforeAll(async () => {
  [redis, receiver] = await Promise.all([startRedisServer(), startReceiver()]);
  tracing = startTracing();
});
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
  tracing.reset();
});
afterAll(async () => {
  await tracing?.close();
  await receiver?.close();
  await redis?.stop();
});

/** A queue on a fresh name over two shards, and a worker on it when `withWorker`. */
function setup(attemptDelaysMs: number[], withWorker: boolean) {
  const channel = receiver.channel();
  const base = { connection: redis.url, queueName: `traced${++run}`, shards: 2 };
  const queue = createDeliveryQueue({ ...base, attemptDelaysMs, jitter: 0 });
  open.push(queue);
  if (withWorker) {
    const worker = createDeliveryWorker({
      ...base,
      channels: (id) => (id === channel.id ? channel : undefined),
      sender: { dangerouslyAllowLoopback: true, timeoutMs: 5_000 },
    });
    open.push(worker);
  }
  return { queue, channel, base };
}

/** The data BullMQ stored for a job, read with BullMQ itself. */
async function jobData(base: { queueName: string; shards: number }, jobId: string) {
  for (const shard of deliveryQueueShards(base)) {
    const bull = new Queue(shard.name, { connection: { url: redis.url }, prefix: shard.prefix });
    try {
      const job = await bull.getJob(jobId);
      if (job) return job.data as Record<string, unknown>;
    } finally {
      await bull.close();
    }
  }
  throw new Error(`job ${jobId} not found in any shard`);
}

const named = (prefix: string) => (span: ReadableSpan) => span.name.startsWith(prefix);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

describe('with no tracer provider registered', () => {
  it('writes no trace context into the job, records nothing and delivers as before', async () => {
    const { queue, channel, base } = setup([60_000], false);
    const { jobId } = await queue.enqueue(channel.id, sampleAlert());
    expect(Object.keys(await jobData(base, jobId))).not.toContain('traceContext');

    receiver.answer([204]);
    const delivered = setup([0], true);
    await delivered.queue.enqueue(delivered.channel.id, sampleAlert());
    await waitFor('the delivery', () => receiver.requests.length === 1);
    expect(receiver.requests[0]?.traceparent).toBeUndefined();
    expect(tracing.spans()).toEqual([]);
  });
});

describe('with a tracer provider registered globally', () => {
  beforeAll(() => {
    trace.setGlobalTracerProvider(tracing.provider);
  });

  it('carries the enqueue span’s context in the job (two shards)', async () => {
    const { queue, channel, base } = setup([60_000], false);
    const { jobId } = await queue.enqueue(channel.id, sampleAlert());
    const [send] = tracing.spans();
    const { traceId, spanId } = send!.spanContext();
    expect((await jobData(base, jobId)).traceContext).toEqual({
      traceparent: `00-${traceId}-${spanId}-01`,
    });
  });

  it('reads one alert as one trace: send → process per attempt → POST, with the outcomes', async () => {
    receiver.answer([503, 204]);
    const { queue, channel, base } = setup([0, 50, 50], true);
    const alert = sampleAlert();
    const { jobId } = await queue.enqueue(channel.id, alert);
    await waitFor('two process spans', () => tracing.spans().filter(named('process')).length === 2);
    const spans = tracing.spans();
    const [send, ...moreSends] = spans.filter(named('send'));
    const processes = spans.filter(named('process'));
    const posts = spans.filter(named('POST'));
    expect(moreSends).toEqual([]);
    expect(posts).toHaveLength(2);
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);

    expect(send?.name).toBe(`send ${base.queueName}`);
    expect(send?.kind).toBe(SpanKind.PRODUCER);
    expect(parentOf(send!)).toBeUndefined();
    expect(send?.attributes).toEqual({
      'messaging.system': 'bullmq',
      'messaging.operation.type': 'send',
      'messaging.operation.name': 'send',
      'messaging.destination.name': base.queueName,
      'messaging.message.id': jobId,
      'cspwatch.channel.id': channel.id,
      'cspwatch.alert.id': alert.id,
    });

    const byAttempt = [...processes].sort(
      (a, b) =>
        Number(a.attributes['cspwatch.delivery.attempt']) -
        Number(b.attributes['cspwatch.delivery.attempt']),
    );
    for (const [index, process] of byAttempt.entries()) {
      expect(process.name).toBe(`process ${base.queueName}`);
      expect(process.kind).toBe(SpanKind.CONSUMER);
      expect(parentOf(process)).toBe(idOf(send!));
      expect(process.links.map((link) => link.context.spanId)).toEqual([idOf(send!)]);
      expect(process.attributes).toMatchObject({
        'messaging.system': 'bullmq',
        'messaging.operation.type': 'process',
        'messaging.destination.name': base.queueName,
        'messaging.message.id': jobId,
        'cspwatch.channel.id': channel.id,
        'cspwatch.alert.id': alert.id,
        'cspwatch.delivery.attempt': index + 1,
      });
      const [post, ...others] = posts.filter((span) => parentOf(span) === idOf(process));
      expect(others).toEqual([]);
      expect(post?.kind).toBe(SpanKind.CLIENT);
      // The receiver saw that attempt's span as its parent.
      const { traceId, spanId } = post!.spanContext();
      expect(receiver.requests[index]?.traceparent).toBe(`00-${traceId}-${spanId}-01`);
    }
    const [first, second] = byAttempt;
    expect(first?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'http_status' });
    expect(first?.attributes['error.type']).toBe('http_status');
    expect(second?.status.code).toBe(SpanStatusCode.UNSET);
    expect(second?.attributes['error.type']).toBeUndefined();
    const postOf = (process: ReadableSpan) =>
      posts.find((span) => parentOf(span) === idOf(process));
    expect(postOf(first!)?.attributes).toMatchObject({
      'http.response.status_code': 503,
      'error.type': '503',
      'cspwatch.channel.consecutive_failures': 1,
    });
    expect(postOf(first!)?.status.code).toBe(SpanStatusCode.ERROR);
    expect(postOf(second!)?.attributes).toMatchObject({
      'http.response.status_code': 204,
      'cspwatch.channel.consecutive_failures': 0,
    });

    const signatures = receiver.requests.map((headers) => String(headers['x-cspwatch-signature']));
    const forbidden = [SECRET, PATH_TOKEN, QUERY_SECRET, ...signatures];
    expect(signatures).toHaveLength(2);
    expect(leakedSecrets(spans, [...forbidden, ...signatures.map((s) => s.slice(7))])).toEqual([]);
  });

  it('keeps the trace of an alert parked while its channel is disabled, once released', async () => {
    receiver.answer([503, 503, 503, 503, 503, 204]);
    const { queue, channel } = setup([0, 10, 10, 10, 10], true);
    await queue.enqueue(channel.id, sampleAlert());
    await waitFor('the channel disabled', async () => (await queue.countParked(channel.id)) === 1);
    expect(await queue.enableChannel(channel.id)).toEqual({ released: 1 });
    await waitFor('the delivery after the release', () => receiver.requests.length === 6);
    await waitFor('six process spans', () => tracing.spans().filter(named('process')).length === 6);
    const [send] = tracing.spans().filter(named('send'));
    const processes = tracing.spans().filter(named('process'));
    const released = processes.find((span) => span.attributes['cspwatch.delivery.attempt'] === 6);
    expect(released?.status.code).toBe(SpanStatusCode.UNSET);
    for (const process of processes) {
      expect(parentOf(process)).toBe(idOf(send!));
      expect(process.links.map((link) => link.context.spanId)).toEqual([idOf(send!)]);
    }
  });

  it('refuses a tracerProvider that is not one, saying what it must be', () => {
    expect(() =>
      createDeliveryQueue({ connection: redis.url, tracerProvider: {} as never }),
    ).toThrow(/tracerProvider.*must be an OpenTelemetry TracerProvider/);
  });
});
