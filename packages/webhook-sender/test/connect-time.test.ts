import { createSampleAlert } from '@cspwatch/webhooks/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookSender } from '../src/delivery/create-sender';
import type { HostResolver } from '../src/target/resolver';
import { startReceiver } from './helpers/receiver';

const SECRET = 'connect-time-secret';
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

/** A resolver answering from a script, one answer per call, recording the names asked. */
function scriptedResolver(...answers: (readonly string[])[]) {
  const asked: string[] = [];
  const resolver: HostResolver = async (name) => {
    asked.push(name);
    return answers[Math.min(asked.length - 1, answers.length - 1)] ?? [];
  };
  return { resolver, asked };
}

describe('the injected resolver at check time and at connect time', () => {
  it('refuses a name with one public and one private address, before connecting', async () => {
    const { resolver, asked } = scriptedResolver(['93.184.216.34', '10.0.0.8']);
    const sender = createWebhookSender({ resolver });
    const result = await sender.deliver(
      { id: 'c1', url: 'https://hooks.example.com/', secret: SECRET },
      createSampleAlert(),
    );
    expect(result).toMatchObject({ ok: false, cause: 'target_rejected', consecutiveFailures: 1 });
    expect(result.rejection).toMatchObject({
      stage: 'resolve',
      reason: 'ipv4_not_public',
      address: '10.0.0.8',
    });
    expect(asked).toEqual(['hooks.example.com']);
    await sender.close();
  });

  it('refuses a name with no address', async () => {
    const { resolver } = scriptedResolver([]);
    const sender = createWebhookSender({ resolver });
    const result = await sender.deliver(
      { id: 'c2', url: 'https://hooks.example.com/', secret: SECRET },
      createSampleAlert(),
    );
    expect(result.rejection).toMatchObject({ reason: 'no_addresses', stage: 'resolve' });
    await sender.close();
  });

  it('counts a resolver that never answers as a timeout, within timeoutMs', async () => {
    const resolver: HostResolver = () => new Promise<readonly string[]>(() => {});
    const sender = createWebhookSender({ resolver, timeoutMs: 200 });
    const result = await sender.deliver(
      { id: 'c0', url: 'https://hung-dns.example.com/', secret: SECRET },
      createSampleAlert(),
    );
    expect(result).toMatchObject({ ok: false, cause: 'timeout', consecutiveFailures: 1 });
    expect(result.durationMs).toBeLessThan(5000);
    await sender.close();
  });

  it('catches a resolver that answers public at check time and private at connect time', async () => {
    const { resolver, asked } = scriptedResolver(['93.184.216.34'], ['10.0.0.7']);
    const sender = createWebhookSender({ resolver, timeoutMs: 2000 });
    const result = await sender.deliver(
      { id: 'c3', url: 'https://rebind.example.com/hook', secret: SECRET },
      createSampleAlert(),
    );
    expect(result).toMatchObject({
      ok: false,
      cause: 'target_rejected',
      status: null,
      consecutiveFailures: 1,
    });
    expect(result.rejection).toMatchObject({
      stage: 'connect',
      reason: 'ipv4_not_public',
      address: '10.0.0.7',
    });
    expect(asked).toEqual(['rebind.example.com', 'rebind.example.com']);
    await sender.close();
  });

  it('catches rebinding to IPv6 private space and to an IPv4-mapped address at connect time', async () => {
    for (const [address, reason] of [
      ['fd00::1', 'ipv6_not_public'],
      ['::ffff:127.0.0.1', 'ipv6_embeds_ipv4'],
    ] as const) {
      const { resolver } = scriptedResolver(['2606:4700:4700::1111'], [address]);
      const sender = createWebhookSender({ resolver, timeoutMs: 2000 });
      const result = await sender.deliver(
        { id: `c4-${reason}`, url: 'https://rebind.example.com/', secret: SECRET },
        createSampleAlert(),
      );
      expect(result.rejection).toMatchObject({ stage: 'connect', reason, address });
      await sender.close();
    }
  });

  it('dials the address the connect-time check approved (loopback opt-in, real server)', async () => {
    const { resolver, asked } = scriptedResolver(['127.0.0.1'], ['127.0.0.1']);
    const sender = createWebhookSender({ resolver, dangerouslyAllowLoopback: true });
    const before = receiver.requests.length;
    const url = `http://inbox.localhost:${receiver.port}/hook`;
    const result = await sender.deliver({ id: 'c5', url, secret: SECRET }, createSampleAlert());
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(asked).toEqual(['inbox.localhost', 'inbox.localhost']);
    expect(receiver.requests.length).toBe(before + 1);
    expect(receiver.requests.at(-1)?.headers.host).toBe(`inbox.localhost:${receiver.port}`);
    await sender.close();
  });

  it('with the opt-in, still refuses a localhost name that rebinds away from loopback', async () => {
    const { resolver } = scriptedResolver(['127.0.0.1'], ['192.168.0.10']);
    const sender = createWebhookSender({ resolver, dangerouslyAllowLoopback: true });
    const before = receiver.requests.length;
    const url = `http://inbox.localhost:${receiver.port}/hook`;
    const result = await sender.deliver({ id: 'c6', url, secret: SECRET }, createSampleAlert());
    expect(result.rejection).toMatchObject({
      stage: 'connect',
      reason: 'not_loopback',
      address: '192.168.0.10',
    });
    expect(receiver.requests.length).toBe(before);
    await sender.close();
  });

  it('checks IP-literal URLs before every delivery (no lookup hook sees them)', async () => {
    const { resolver, asked } = scriptedResolver(['93.184.216.34']);
    const sender = createWebhookSender({ resolver });
    for (const url of ['https://10.0.0.1/', 'https://2130706433/', 'https://[::ffff:a00:1]/']) {
      const result = await sender.deliver({ id: 'c7', url, secret: SECRET }, createSampleAlert());
      expect(result).toMatchObject({ cause: 'target_rejected' });
      expect(result.rejection?.stage).toBe('url');
    }
    expect(asked).toEqual([]);
    // Refused as written: the channel's configuration, reported but not counted.
    expect(await sender.getState('c7')).toEqual({ consecutiveFailures: 0, disabled: false });
    await sender.close();
  });

  it('without the opt-in, refuses the loopback receiver outright', async () => {
    const sender = createWebhookSender();
    const before = receiver.requests.length;
    const result = await sender.deliver(
      { id: 'c8', url: receiver.url, secret: SECRET },
      createSampleAlert(),
    );
    expect(result).toMatchObject({
      cause: 'target_rejected',
      rejection: { reason: 'scheme_not_allowed' },
    });
    const https = await sender.deliver(
      { id: 'c8', url: `https://127.0.0.1:${receiver.port}/`, secret: SECRET },
      createSampleAlert(),
    );
    expect(https).toMatchObject({
      cause: 'target_rejected',
      rejection: { reason: 'ipv4_not_public' },
    });
    expect(receiver.requests.length).toBe(before);
    await sender.close();
  });
});
