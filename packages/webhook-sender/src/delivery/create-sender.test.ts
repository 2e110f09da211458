import { createSampleAlert } from '@cspwatch/webhooks/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { isWebhookSenderError } from '../errors';
import { createWebhookSender } from './create-sender';

const sender = createWebhookSender({ resolver: async () => ['10.0.0.1'] });
afterAll(() => sender.close());
const channel = { id: 'c', url: 'https://hooks.example.com/', secret: 'a-long-secret' };

async function codeOf(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    expect(isWebhookSenderError(error)).toBe(true);
    return (error as { code: string }).code;
  }
  throw new Error('expected a WebhookSenderError');
}

describe('createWebhookSender input checks', () => {
  it('throws invalid_channel for a malformed channel, before anything is sent or counted', async () => {
    expect(
      await codeOf(() => sender.deliver({ ...channel, secret: 'short' }, createSampleAlert())),
    ).toBe('invalid_channel');
    expect(await codeOf(() => sender.deliver({ ...channel, id: '' }, createSampleAlert()))).toBe(
      'invalid_channel',
    );
    expect(await codeOf(() => sender.sendTest(null as never))).toBe('invalid_channel');
    expect(await sender.getState('c')).toEqual({ consecutiveFailures: 0, disabled: false });
  });

  it('throws invalid_alert for something that is not an alert', async () => {
    expect(await codeOf(() => sender.deliver(channel, null as never))).toBe('invalid_alert');
    expect(await codeOf(() => sender.deliver(channel, { eventType: 'x' } as never))).toBe(
      'invalid_alert',
    );
    const circular: Record<string, unknown> = { id: 'x' };
    circular.self = circular;
    expect(await codeOf(() => sender.deliver(channel, circular as never))).toBe('invalid_alert');
  });

  it('exposes the full target check with the sender’s resolver', async () => {
    const verdict = await sender.checkTarget('https://hooks.example.com/');
    expect(verdict).toMatchObject({
      allowed: false,
      reason: 'ipv4_not_public',
      address: '10.0.0.1',
    });
  });
});
