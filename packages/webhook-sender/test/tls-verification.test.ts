import { createSampleAlert } from '@cspwatch/webhooks/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookSender } from '../src/delivery/create-sender';
import { startSelfSignedReceiver } from './helpers/tls-receiver';

let receiver: Awaited<ReturnType<typeof startSelfSignedReceiver>>;
beforeAll(async () => {
  receiver = await startSelfSignedReceiver();
});
afterAll(async () => {
  await receiver.close();
});

describe('TLS verification', () => {
  it('stays on when NODE_TLS_REJECT_UNAUTHORIZED=0 is set in the environment', async () => {
    const before = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    const sender = createWebhookSender({ dangerouslyAllowLoopback: true });
    try {
      const channel = { id: 'c1', url: receiver.url, secret: 'tls-verification-secret' };
      const result = await sender.deliver(channel, createSampleAlert());
      expect(result).toMatchObject({
        ok: false,
        cause: 'network',
        error: 'TLS certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT)',
      });
      expect(receiver.requests()).toBe(0);
    } finally {
      await sender.close();
      if (before === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = before;
    }
  });
});
