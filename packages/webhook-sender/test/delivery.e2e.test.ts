import {
  buildAlert,
  createMemoryChannelStateStore,
  createWebhookSender,
  type DeliveryChannel,
  type WebhookSender,
} from '@cspwatch/webhook-sender';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInbox } from './helpers/inbox';
import { verifyIndependently } from './helpers/independent-verify';

const SECRET = 'whsec_e2e-ünïcödé-secret';
let verifyingInbox: Awaited<ReturnType<typeof startInbox>>;
let sender: WebhookSender;
/** Same store, short timeout: used only where the inbox hangs, so load cannot fake a timeout. */
let impatientSender: WebhookSender;

beforeAll(async () => {
  verifyingInbox = await startInbox();
  const store = createMemoryChannelStateStore();
  sender = createWebhookSender({ store, dangerouslyAllowLoopback: true });
  impatientSender = createWebhookSender({ store, dangerouslyAllowLoopback: true, timeoutMs: 400 });
});

afterAll(async () => {
  await sender.close();
  await impatientSender.close();
  await verifyingInbox.close();
});

function inboxChannel(response?: {
  status?: number;
  location?: string;
  hang?: boolean;
}): DeliveryChannel {
  const { id, url } = verifyingInbox.createChannel({
    secret: SECRET,
    ...(response ? { response } : {}),
  });
  return { id, url, secret: SECRET };
}

const answer = (
  channel: DeliveryChannel,
  response: { status?: number; location?: string; hang?: boolean },
) => verifyingInbox.setResponse(channel.id, response);
const received = (channel: DeliveryChannel) => verifyingInbox.deliveries(channel.id);

function sampleAlert() {
  const end = Date.now();
  return buildAlert({
    rule: 'New violation types — ünïcödé',
    website: { id: 'ws_1', name: 'Shop', url: 'https://shop.example.com' },
    findings: [
      {
        effectiveDirective: 'script-src-elem',
        blockedUrlOrigin: 'https://cdn.example.net',
        firstSeen: end - 30_000,
        count: 3,
      },
      {
        effectiveDirective: 'img-src',
        blockedUrlOrigin: 'https://pixel.example.org',
        firstSeen: end - 10_000,
        count: 1,
      },
    ],
    window: { start: end - 60_000, end },
    dashboardUrl: 'https://app.cspwatch.example/ws_1/alerts',
  });
}

describe('deliveries to a verifying inbox over real HTTP', () => {
  it('delivers a signed alert that the inbox and an independent verifier both accept', async () => {
    const channel = inboxChannel();
    const alert = sampleAlert();
    const result = await sender.deliver(channel, alert);
    expect(result).toMatchObject({
      ok: true,
      status: 200,
      cause: null,
      consecutiveFailures: 0,
      disabled: false,
      alertId: alert.id,
    });
    const [delivery] = received(channel);
    expect(delivery?.verified).toBe(true);
    expect(delivery?.event).toEqual(alert);
    expect(delivery?.rawBody).toBe(JSON.stringify(alert));
    expect(delivery?.headers['content-type']).toBe('application/json');
    expect(delivery?.headers['user-agent']).toMatch(/^cspwatch-webhook-sender\//);
    expect(verifyIndependently(delivery!.rawBody, delivery!.headers, SECRET)).toBe('ok');
    expect(verifyIndependently(delivery!.rawBody, delivery!.headers, 'another-secret')).toBe(
      'mismatch',
    );
    expect(
      verifyIndependently(
        JSON.stringify(JSON.parse(delivery!.rawBody), null, 1),
        delivery!.headers,
        SECRET,
      ),
    ).toBe('mismatch');
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it('disables the channel on the fifth consecutive failure (500, 302, hang, …) and then sends nothing', async () => {
    const channel = inboxChannel({ status: 500 });
    const first = await sender.deliver(channel, sampleAlert());
    expect(first).toMatchObject({
      ok: false,
      status: 500,
      cause: 'http_status',
      consecutiveFailures: 1,
      disabledNow: false,
    });

    answer(channel, { status: 302, location: 'https://elsewhere.example.com/hook' });
    const redirected = await sender.deliver(channel, sampleAlert());
    expect(redirected).toMatchObject({
      status: 302,
      cause: 'redirect',
      location: 'https://elsewhere.example.com/hook',
      consecutiveFailures: 2,
    });

    answer(channel, { hang: true });
    const hung = await impatientSender.deliver(channel, sampleAlert());
    expect(hung).toMatchObject({
      status: null,
      cause: 'timeout',
      consecutiveFailures: 3,
      disabled: false,
    });
    expect(hung.durationMs).toBeGreaterThanOrEqual(350);

    answer(channel, { status: 503 });
    expect(await sender.deliver(channel, sampleAlert())).toMatchObject({
      cause: 'http_status',
      consecutiveFailures: 4,
      disabledNow: false,
    });
    const fifth = await sender.deliver(channel, sampleAlert());
    expect(fifth).toMatchObject({
      ok: false,
      consecutiveFailures: 5,
      disabledNow: true,
      disabled: true,
    });
    expect(received(channel)).toHaveLength(5);
    expect(received(channel).every((d) => d.verified)).toBe(true);

    answer(channel, { status: 200 });
    const skipped = await sender.deliver(channel, sampleAlert());
    expect(skipped).toMatchObject({
      ok: false,
      cause: 'channel_disabled',
      status: null,
      alertId: null,
      disabledNow: false,
      consecutiveFailures: 5,
    });
    expect(received(channel)).toHaveLength(5);

    await sender.enable(channel.id);
    expect(await sender.getState(channel.id)).toEqual({ consecutiveFailures: 0, disabled: false });
    expect(await sender.deliver(channel, sampleAlert())).toMatchObject({
      ok: true,
      consecutiveFailures: 0,
    });
    expect(received(channel)).toHaveLength(6);
  });

  it('resets the count on a success in between', async () => {
    const channel = inboxChannel({ status: 500 });
    for (let i = 1; i <= 4; i++)
      expect((await sender.deliver(channel, sampleAlert())).consecutiveFailures).toBe(i);
    answer(channel, { status: 204 });
    expect(await sender.deliver(channel, sampleAlert())).toMatchObject({
      ok: true,
      status: 204,
      consecutiveFailures: 0,
    });
    answer(channel, { status: 500 });
    for (let i = 1; i <= 4; i++) await sender.deliver(channel, sampleAlert());
    expect(await sender.getState(channel.id)).toEqual({ consecutiveFailures: 4, disabled: false });
  });

  it('never follows a redirect', async () => {
    const target = inboxChannel();
    const channel = inboxChannel({ status: 307, location: target.url });
    const result = await sender.deliver(channel, sampleAlert());
    expect(result).toMatchObject({ cause: 'redirect', status: 307, location: target.url });
    expect(received(target)).toHaveLength(0);
  });

  it('runs the Test action whatever the state, without changing the count or the state', async () => {
    const channel = inboxChannel({ status: 500 });
    for (let i = 0; i < 3; i++) await sender.deliver(channel, sampleAlert());

    const failingTest = await sender.sendTest(channel);
    expect(failingTest).toMatchObject({
      ok: false,
      test: true,
      status: 500,
      consecutiveFailures: 3,
      disabledNow: false,
    });
    answer(channel, { status: 200 });
    const passingTest = await sender.sendTest(channel);
    expect(passingTest).toMatchObject({
      ok: true,
      test: true,
      status: 200,
      consecutiveFailures: 3,
    });
    expect(await sender.getState(channel.id)).toEqual({ consecutiveFailures: 3, disabled: false });

    answer(channel, { status: 500 });
    for (let i = 0; i < 2; i++) await sender.deliver(channel, sampleAlert());
    expect(await sender.getState(channel.id)).toEqual({ consecutiveFailures: 5, disabled: true });
    answer(channel, { status: 200 });
    const onDisabled = await sender.sendTest(channel);
    expect(onDisabled).toMatchObject({
      ok: true,
      test: true,
      disabled: true,
      consecutiveFailures: 5,
    });
    expect(await sender.getState(channel.id)).toEqual({ consecutiveFailures: 5, disabled: true });

    const tests = received(channel).filter((d) => d.event?.rule === 'Test alert');
    expect(tests).toHaveLength(3);
    for (const delivery of tests) {
      expect(delivery.verified).toBe(true);
      expect(verifyIndependently(delivery.rawBody, delivery.headers, SECRET)).toBe('ok');
      expect(delivery.event).toMatchObject({
        eventType: 'csp-violation:new-type',
        findingsCount: 1,
      });
    }
  });

  it('counts 20 parallel failing deliveries consistently and disables exactly once', async () => {
    const channel = inboxChannel({ status: 500 });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => sender.deliver(channel, sampleAlert())),
    );
    const sent = results.filter((r) => r.cause !== 'channel_disabled');
    expect(sent.every((r) => r.cause === 'http_status')).toBe(true);
    expect(sent.map((r) => r.consecutiveFailures).sort((a, b) => a - b)).toEqual(
      sent.map((_, i) => i + 1),
    );
    expect(results.filter((r) => r.disabledNow)).toHaveLength(1);
    expect(results.find((r) => r.disabledNow)?.consecutiveFailures).toBe(5);
    expect(await sender.getState(channel.id)).toEqual({
      consecutiveFailures: sent.length,
      disabled: true,
    });
    expect(received(channel)).toHaveLength(sent.length);
  });
});
