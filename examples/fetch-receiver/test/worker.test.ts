import { createSignedDelivery } from '@cspwatch/webhooks/testing';
import { describe, expect, it } from 'vitest';
import worker from '../src/worker';

const secret = 'whsec_fetch_receiver_worker';
const url = 'http://receiver.test/webhooks/cspwatch';

async function post(env: { CSPWATCH_WEBHOOK_SECRET?: string }): Promise<Response> {
  const { body, headers } = await createSignedDelivery({ secret });
  return worker.fetch(new Request(url, { method: 'POST', body, headers }), env);
}

describe('Workers entry (secret read from the bindings per request)', () => {
  it('answers 500 invalid_secret, not 400, while the binding is missing', async () => {
    const response = await post({});
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ code: 'invalid_secret' });
  });

  it('verifies once the binding is set, and follows a changed binding', async () => {
    expect((await post({ CSPWATCH_WEBHOOK_SECRET: secret })).status).toBe(204);
    expect((await post({ CSPWATCH_WEBHOOK_SECRET: 'whsec_another_secret' })).status).toBe(400);
  });
});
