import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSampleAlert, createSignedDelivery } from '@cspwatch/webhooks/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';

const secret = 'whsec_express_receiver_test';
const lines: string[] = [];
const received: unknown[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  const app = createApp({
    secret: [secret, 'whsec_previous_secret'],
    log: (line) => lines.push(line),
    onAlert: (event) => void received.push(event),
  });
  server = createServer(app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
beforeEach(() => {
  lines.length = 0;
  received.length = 0;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

const post = (body: string, headers: Record<string, string>) =>
  fetch(`${base}/webhooks/cspwatch`, { method: 'POST', body, headers });

/** Waits until the response's `finish` handler has logged. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Express receiver over HTTP', () => {
  it('answers 204 to a signed delivery, logs it and hands the alert on', async () => {
    const alert = createSampleAlert();
    const { body, headers } = await createSignedDelivery({ secret, payload: alert });
    const response = await post(body, headers);
    expect(response.status).toBe(204);
    expect(received).toEqual([alert]);
    expect(lines).toEqual([
      `alert ${alert.id} csp-violation:new-type "Test alert" on Example website: script-src-elem https://cdn.example.net ×1`,
    ]);
  });

  it('accepts the previous secret during rotation', async () => {
    const { body, headers } = await createSignedDelivery({ secret: 'whsec_previous_secret' });
    expect((await post(body, headers)).status).toBe(204);
  });

  it.each([
    [
      'a tampered body',
      async () => {
        const { body, headers } = await createSignedDelivery({ secret });
        return { body: body.replace('Test alert', 'Test alerts'), headers };
      },
      'signature_mismatch',
    ],
    [
      'a stale delivery',
      () => createSignedDelivery({ secret, timestamp: Date.now() - 600_000 }),
      'timestamp_too_old',
    ],
    [
      'a delivery from the future',
      () => createSignedDelivery({ secret, timestamp: Date.now() + 600_000 }),
      'timestamp_in_future',
    ],
    [
      'an unknown secret',
      () => createSignedDelivery({ secret: 'whsec_someone_else' }),
      'signature_mismatch',
    ],
    [
      'no signature headers',
      async () => ({ body: '{}', headers: { 'content-type': 'application/json' } }),
      'missing_header',
    ],
  ])('answers 400 problem+json to %s', async (_name, make, code) => {
    const { body, headers } = await make();
    const response = await post(body, headers);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 400, code });
    await settle();
    expect(received).toEqual([]);
    expect(lines).toEqual([`rejected delivery: ${code}`]);
  });

  it('answers 413 problem+json to a body over 1 MiB, and logs it', async () => {
    const { headers } = await createSignedDelivery({ secret });
    const response = await post('x'.repeat(1_048_577), headers);
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 413, code: 'body_too_large' });
    await settle();
    expect(received).toEqual([]);
    expect(lines).toEqual(['rejected delivery: body_too_large']);
  });

  it('verifies a delivery whatever its content-type (the body is read raw)', async () => {
    const { body, headers } = await createSignedDelivery({ secret });
    const response = await post(body, { ...headers, 'content-type': 'text/plain' });
    expect(response.status).toBe(204);
  });

  it('leaves the rest of the app alone', async () => {
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ ok: true });
    expect((await fetch(`${base}/webhooks/cspwatch`)).status).toBe(404);
  });

  it('never logs or returns the secret', async () => {
    const { body, headers } = await createSignedDelivery({ secret });
    const bad = await post(body, {
      ...headers,
      'x-cspwatch-signature': `sha256=${'0'.repeat(64)}`,
    });
    expect(await bad.text()).not.toContain(secret);
    await settle();
    expect(lines.join('\n')).not.toContain(secret);
  });
});
