import { createServer } from 'node:net';
import { createSampleAlert } from '@cspwatch/webhooks/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookSender, type WebhookSender } from '../src/delivery/create-sender';
import { verifyIndependently } from './helpers/independent-verify';
import { startReceiver } from './helpers/receiver';

const SECRET = 'deliver-http-secret';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setup(
  handler?: Parameters<typeof startReceiver>[0],
  options: Parameters<typeof createWebhookSender>[0] = {},
) {
  const receiver = await startReceiver(handler);
  const sender: WebhookSender = createWebhookSender({ dangerouslyAllowLoopback: true, ...options });
  cleanups.push(
    () => sender.close(),
    () => receiver.close(),
  );
  return {
    receiver,
    sender,
    channel: { id: 'ch', url: `${receiver.url}/hooks/cspwatch?x=1`, secret: SECRET },
  };
}

describe('the HTTP request of a delivery', () => {
  it('POSTs exactly the signed bytes with the documented headers', async () => {
    const { receiver, sender, channel } = await setup(undefined, { userAgent: 'acme-sender/1.2' });
    const alert = createSampleAlert({ rule: 'Règle «test» 🚨' });
    const before = Date.now();
    expect((await sender.deliver(channel, alert)).ok).toBe(true);
    const [request] = receiver.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/hooks/cspwatch?x=1');
    expect(request?.body.equals(Buffer.from(JSON.stringify(alert), 'utf8'))).toBe(true);
    expect(request?.headers['content-length']).toBe(String(request?.body.length));
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['user-agent']).toBe('acme-sender/1.2');
    const timestamp = Number(request?.headers['x-cspwatch-timestamp']);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Date.now());
    expect(request?.headers['x-cspwatch-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    const headers = request!.headers as Record<string, string>;
    expect(verifyIndependently(request!.body.toString('utf8'), headers, SECRET)).toBe('ok');
  });

  it('signs with the injected clock', async () => {
    const { receiver, sender, channel } = await setup(undefined, { now: () => 1_700_000_000_123 });
    await sender.deliver(channel, createSampleAlert());
    expect(receiver.requests[0]?.headers['x-cspwatch-timestamp']).toBe('1700000000123');
  });

  it('reads at most maxResponseBodyBytes of the answer', async () => {
    const big = 'x'.repeat(512 * 1024);
    const { sender, channel } = await setup((_, res) => res.end(`HELLO-${big}`), {
      maxResponseBodyBytes: 16,
    });
    const result = await sender.deliver(channel, createSampleAlert());
    expect(result).toMatchObject({ ok: true, status: 200, responseExcerpt: 'HELLO-xxxxxxxxxx' });
  });

  it('counts a 2xx as delivered even when its body never ends, within the timeout', async () => {
    const { sender, channel } = await setup((_, res) => res.writeHead(202).write('partial'), {
      timeoutMs: 800,
    });
    const result = await sender.deliver(channel, createSampleAlert());
    expect(result).toMatchObject({ ok: true, status: 202 });
    expect(result.durationMs).toBeLessThan(2000);
  });

  it('reports a refused connection as a network failure', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const sender = createWebhookSender({ dangerouslyAllowLoopback: true });
    cleanups.push(() => sender.close());
    const result = await sender.deliver(
      { id: 'n', url: `http://127.0.0.1:${port}/`, secret: SECRET },
      createSampleAlert(),
    );
    expect(result).toMatchObject({
      ok: false,
      cause: 'network',
      status: null,
      consecutiveFailures: 1,
    });
    expect(result.error).toMatch(/ECONNREFUSED/);
  });

  it('reports a dropped connection as a network failure', async () => {
    const { sender, channel } = await setup((_, res) => res.socket?.destroy());
    const result = await sender.deliver(channel, createSampleAlert());
    expect(result).toMatchObject({ ok: false, cause: 'network', status: null });
  });

  it('ignores proxy environment variables', async () => {
    const proxy = await startReceiver((_, res) => res.writeHead(502).end());
    cleanups.push(() => proxy.close());
    const saved = { ...process.env };
    Object.assign(process.env, {
      HTTP_PROXY: proxy.url,
      HTTPS_PROXY: proxy.url,
      http_proxy: proxy.url,
      https_proxy: proxy.url,
      NO_PROXY: '',
    });
    try {
      const { receiver, sender, channel } = await setup();
      expect(await sender.deliver(channel, createSampleAlert())).toMatchObject({
        ok: true,
        status: 200,
      });
      expect(receiver.requests).toHaveLength(1);
      expect(proxy.requests).toHaveLength(0);
    } finally {
      for (const key of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'NO_PROXY']) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
  });

  it('treats every 3xx as a failure, even 304, and every non-2xx status', async () => {
    let status = 301;
    const { receiver, sender, channel } = await setup((_, res) =>
      res.writeHead(status, { location: '/next' }).end(),
    );
    for (status of [301, 303, 304, 308, 400, 401, 404, 410, 429, 500, 502]) {
      const result = await sender.deliver({ ...channel, id: `s${status}` }, createSampleAlert());
      expect(result.ok).toBe(false);
      expect(result.cause).toBe(status < 400 ? 'redirect' : 'http_status');
      expect(result.status).toBe(status);
    }
    expect(receiver.requests).toHaveLength(11);
  });

  it('counts every 2xx as delivered and every other final status as a failure (spec 4.3)', async () => {
    let status = 200;
    const { receiver, sender, channel } = await setup((_, res) => res.writeHead(status).end());
    const outcomes: string[] = [];
    for (status = 200; status <= 599; status++) {
      const result = await sender.deliver({ ...channel, id: `s${status}` }, createSampleAlert());
      expect(result.status).toBe(status);
      if (result.ok !== status < 300) outcomes.push(`${status}: ok ${result.ok}`);
    }
    expect(outcomes).toEqual([]);
    expect(receiver.requests).toHaveLength(400);
  });
});
