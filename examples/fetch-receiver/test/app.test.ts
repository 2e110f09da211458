import { createSampleAlert, createSignedDelivery } from '@cspwatch/webhooks/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app';

const secret = 'whsec_fetch_receiver_test';
const url = 'http://receiver.test/webhooks/cspwatch';

function setup(options: { secret?: string | readonly string[] } = {}) {
  const lines: string[] = [];
  const received: unknown[] = [];
  const app = createApp({
    secret: options.secret ?? secret,
    log: (line) => lines.push(line),
    onAlert: (event) => void received.push(event),
  });
  const post = (body: string, headers: Record<string, string>) =>
    app.fetch(new Request(url, { method: 'POST', body, headers }));
  return { app, lines, received, post };
}

async function problemCode(response: Response): Promise<unknown> {
  expect(response.headers.get('content-type')).toContain('application/problem+json');
  return ((await response.json()) as { code?: unknown }).code;
}

describe('fetch receiver (app.fetch with real Requests)', () => {
  it('answers 204 to a signed delivery, logs it and hands the parsed alert on', async () => {
    const { post, lines, received } = setup();
    const alert = createSampleAlert({ rule: 'New violation types' });
    const { body, headers } = await createSignedDelivery({ secret, payload: alert });
    const response = await post(body, headers);
    expect(response.status).toBe(204);
    expect(received).toEqual([alert]);
    expect(lines).toEqual([
      `alert ${alert.id} csp-violation:new-type "New violation types" on Example website: script-src-elem https://cdn.example.net ×1`,
    ]);
  });

  it('answers 400 signature_mismatch to a body changed after signing', async () => {
    const { post, lines, received } = setup();
    const { body, headers } = await createSignedDelivery({ secret });
    const response = await post(body.replace('"count":1', '"count":2'), headers);
    expect(response.status).toBe(400);
    expect(await problemCode(response)).toBe('signature_mismatch');
    expect(received).toEqual([]);
    expect(lines).toEqual(['rejected delivery: signature_mismatch']);
  });

  it('answers 400 timestamp_too_old to a delivery signed 10 minutes ago', async () => {
    const { post } = setup();
    const { body, headers } = await createSignedDelivery({
      secret,
      timestamp: Date.now() - 600_000,
    });
    const response = await post(body, headers);
    expect(response.status).toBe(400);
    expect(await problemCode(response)).toBe('timestamp_too_old');
  });

  it('answers 400 missing_header without the signature headers, and to another secret', async () => {
    const { post } = setup();
    const { body, headers } = await createSignedDelivery({ secret: 'another-secret-value' });
    expect(await problemCode(await post(body, { 'content-type': 'application/json' }))).toBe(
      'missing_header',
    );
    expect(await problemCode(await post(body, headers))).toBe('signature_mismatch');
  });

  it('accepts deliveries signed with the old secret while rotating', async () => {
    const { post } = setup({ secret: ['whsec_new_secret_2', secret] });
    const { body, headers } = await createSignedDelivery({ secret });
    expect((await post(body, headers)).status).toBe(204);
  });

  it('only accepts POST', async () => {
    const { app } = setup();
    expect((await app.fetch(new Request(url))).status).toBe(404);
  });

  it('never logs the secret', async () => {
    const { post, lines } = setup();
    const { body, headers } = await createSignedDelivery({ secret });
    await post(body, headers);
    await post(body, { ...headers, 'x-cspwatch-signature': 'sha256=00' });
    expect(lines.join('\n')).not.toContain(secret);
  });

  it('rejects any single-byte change of a signed body', async () => {
    const { post, received } = setup();
    const { body, headers } = await createSignedDelivery({ secret });
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: body.length - 1 }),
        fc.integer({ min: 0x20, max: 0x7e }),
        async (index, code) => {
          fc.pre(body.charCodeAt(index) !== code);
          const changed = body.slice(0, index) + String.fromCharCode(code) + body.slice(index + 1);
          expect((await post(changed, headers)).status).toBe(400);
        },
      ),
      { numRuns: 60 },
    );
    expect(received).toEqual([]);
  });
});
