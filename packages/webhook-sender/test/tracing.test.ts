import { createServer } from 'node:net';
import { createSampleAlert } from '@cspwatch/webhooks/testing';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { leakedSecrets, startTracing, type Tracing } from '../../../test/helpers/spans';
import { createWebhookSender } from '../src/delivery/create-sender';
import { isWebhookSenderError } from '../src/errors';
import { verifyIndependently } from './helpers/independent-verify';
import { startReceiver } from './helpers/receiver';

const SECRET = 'tracing-secret-do-not-leak';
const PATH_TOKEN = 'T0KEN-in-the-path-9f8e7d';
const QUERY_TOKEN = 'query-token-5a4b3c';

let tracing: Tracing;
beforeAll(() => {
  tracing = startTracing();
});
afterAll(() => tracing.close());
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  tracing.reset();
});

async function setup(status: number, withProvider = true) {
  const receiver = await startReceiver((_, res) => {
    res.statusCode = status;
    res.end();
  });
  const sender = createWebhookSender({
    dangerouslyAllowLoopback: true,
    ...(withProvider ? { tracerProvider: tracing.provider } : {}),
  });
  cleanups.push(
    () => sender.close(),
    () => receiver.close(),
  );
  const url = `${receiver.url}/hooks/${PATH_TOKEN}?token=${QUERY_TOKEN}`;
  return { receiver, sender, channel: { id: 'ch_traced', url, secret: SECRET } };
}

describe('a delivery attempt span', () => {
  it('is a CLIENT span with the HTTP client attributes, the outcome and the channel state', async () => {
    const { receiver, sender, channel } = await setup(503);
    const alert = createSampleAlert();
    const result = await sender.deliver(channel, alert);
    expect(result).toMatchObject({ ok: false, status: 503, cause: 'http_status' });
    const [span, ...others] = tracing.spans();
    expect(others).toEqual([]);
    expect(span?.name).toBe('POST');
    expect(span?.kind).toBe(SpanKind.CLIENT);
    expect(span?.instrumentationScope.name).toBe('@cspwatch/webhook-sender');
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: '503' });
    expect(span?.attributes).toEqual({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': receiver.port,
      'url.scheme': 'http',
      'http.response.status_code': 503,
      'error.type': '503',
      'cspwatch.delivery.cause': 'http_status',
      'cspwatch.channel.id': 'ch_traced',
      'cspwatch.alert.id': alert.id,
      'cspwatch.delivery.test': false,
      'cspwatch.channel.consecutive_failures': 1,
      'cspwatch.delivery.disabled_now': false,
    });
    // The receiver gets the span's traceparent, and the signature still verifies.
    const request = receiver.requests[0]!;
    const { traceId, spanId } = span!.spanContext();
    expect(request.headers.traceparent).toBe(`00-${traceId}-${spanId}-01`);
    expect(request.headers.tracestate).toBeUndefined();
    const headers = request.headers as Record<string, string>;
    expect(verifyIndependently(request.body.toString('utf8'), headers, SECRET)).toBe('ok');
  });

  it('is the child of the caller’s active span, and says which attempt disabled the channel', async () => {
    const { sender, channel } = await setup(500);
    const parent = tracing.provider.getTracer('test').startSpan('caller');
    await context.with(trace.setSpan(context.active(), parent), async () => {
      for (let i = 0; i < 5; i++) await sender.deliver(channel, createSampleAlert());
    });
    parent.end();
    const attempts = tracing.spans().filter((span) => span.name === 'POST');
    expect(attempts).toHaveLength(5);
    for (const span of attempts) {
      expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
      expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
    }
    expect(attempts.map((span) => span.attributes['cspwatch.delivery.disabled_now'])).toEqual([
      false,
      false,
      false,
      false,
      true,
    ]);
  });

  it('names the failure cause of an attempt that got no answer, and marks the Test action', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const { sender } = await setup(204);
    const channel = { id: 'ch_refused', url: `http://127.0.0.1:${port}/`, secret: SECRET };
    const result = await sender.sendTest(channel);
    expect(result.cause).toBe('network');
    const [span] = tracing.spans();
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    expect(span?.attributes).toMatchObject({
      'error.type': 'network',
      'cspwatch.delivery.cause': 'network',
      'cspwatch.delivery.test': true,
      'server.port': port,
    });
    expect(span?.attributes['http.response.status_code']).toBeUndefined();
  });

  it('ends at the end of the HTTP attempt, with no error on a 2xx', async () => {
    const { sender, channel } = await setup(204);
    expect((await sender.deliver(channel, createSampleAlert())).ok).toBe(true);
    const [span] = tracing.spans();
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
    expect(span?.attributes['error.type']).toBeUndefined();
    expect(span?.attributes['http.response.status_code']).toBe(204);
    expect(span?.ended).toBe(true);
  });

  it('bounds server.address like the ids: a megabyte-long host is not copied whole', async () => {
    const { sender } = await setup(204);
    const host = `${'h'.repeat(60)}.`.repeat(16_000);
    const channel = { id: 'ch_long', url: `https://${host}example.com/`, secret: SECRET };
    const result = await sender.deliver(channel, createSampleAlert());
    expect(result.cause).toBe('target_rejected');
    const address = tracing.spans()[0]?.attributes['server.address'];
    expect(typeof address).toBe('string');
    expect(String(address).length).toBeLessThanOrEqual(256);
    expect(String(address)).toBe(host.slice(0, 256));
  });

  it('never carries the secret, the signature, the body or the target URL’s path and query', async () => {
    const { receiver, sender, channel } = await setup(503);
    const alert = createSampleAlert();
    await sender.deliver(channel, alert);
    await sender.sendTest(channel);
    const signatures = receiver.requests.map((r) => String(r.headers['x-cspwatch-signature']));
    const hexes = signatures.map((value) => value.slice('sha256='.length));
    const forbidden = [
      SECRET,
      PATH_TOKEN,
      QUERY_TOKEN,
      ...signatures,
      ...hexes,
      alert.dashboardUrl,
    ];
    expect(tracing.spans()).toHaveLength(2);
    expect(leakedSecrets(tracing.spans(), forbidden)).toEqual([]);
  });
});

describe('with no tracer provider', () => {
  it('delivers as before: no span and no traceparent header', async () => {
    const { receiver, sender, channel } = await setup(204, false);
    expect((await sender.deliver(channel, createSampleAlert())).ok).toBe(true);
    expect(tracing.spans()).toEqual([]);
    expect(receiver.requests[0]?.headers.traceparent).toBeUndefined();
  });

  it('refuses a tracerProvider that is not one, saying what it must be', () => {
    try {
      createWebhookSender({ tracerProvider: {} as never });
      expect.unreachable('createWebhookSender accepted {}');
    } catch (error) {
      expect(isWebhookSenderError(error) && error.issues).toEqual([
        {
          path: 'tracerProvider',
          code: 'wrong_type',
          message: 'must be an OpenTelemetry TracerProvider (an object with getTracer)',
        },
      ]);
    }
  });
});
