import { createSampleAlert } from '@cspwatch/webhooks/testing';
import { describe, expect, it } from 'vitest';
import { createWebhookSender } from '../src/delivery/create-sender';
import type { HostResolver } from '../src/target/resolver';
import { checkWebhookTargetStatic } from '../src/target/target-policy';
import { startReceiver } from './helpers/receiver';

/** A name of `labels` labels of 60 letters each, under `.com`. */
const longName = (labels: number) =>
  `${Array.from({ length: labels }, () => 'a'.repeat(60)).join('.')}.com`;

describe('host names longer than DNS allows', () => {
  it('refuses a name over 253 characters or with a label over 63, without echoing it', () => {
    const tooLong = longName(5); // 5 × 61 + 3 = 308 characters
    const wideLabel = `${'b'.repeat(64)}.example.com`;
    for (const host of [tooLong, `${tooLong}.`, wideLabel]) {
      const verdict = checkWebhookTargetStatic(`https://${host}/hook`);
      expect(verdict).toMatchObject({ allowed: false, reason: 'name_too_long', stage: 'url' });
      if (verdict.allowed) continue;
      expect(verdict.message).not.toContain('a'.repeat(60));
      expect(verdict.message).not.toContain('b'.repeat(64));
    }
  });

  it('accepts names at the limits: 253 characters, one trailing dot, 63-character labels', () => {
    const label63 = 'c'.repeat(63);
    const at253 = `${label63}.${label63}.${label63}.${'d'.repeat(57)}.com`;
    expect(at253).toHaveLength(253);
    for (const host of [at253, `${at253}.`, `${label63}.example.com`]) {
      expect(checkWebhookTargetStatic(`https://${host}/`)).toMatchObject({ allowed: true });
    }
  });

  it('a delivery to a megabyte-long host is refused before any lookup, with a short error', async () => {
    // A local receiver the name resolves to, so a delivery that goes ahead stays on this machine.
    const receiver = await startReceiver();
    const asked: string[] = [];
    const resolver: HostResolver = async (name) => {
      asked.push(name);
      return ['127.0.0.1'];
    };
    const sender = createWebhookSender({ resolver, dangerouslyAllowLoopback: true });
    const url = `http://${longName(16_000)}.localhost:${receiver.port}/hook`;
    const result = await sender.deliver(
      { id: 'c1', url, secret: 'long-host-secret-1' },
      createSampleAlert(),
    );
    await sender.close();
    await receiver.close();
    expect(receiver.requests).toEqual([]);
    expect(result).toMatchObject({ ok: false, cause: 'target_rejected' });
    expect(result.rejection).toMatchObject({ reason: 'name_too_long' });
    expect(asked).toEqual([]);
    expect(result.error?.length).toBeLessThan(200);
  });
});
