import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspwatchFastify, getCspwatchEvent } from '../src/fastify';
import type { WebhookVerificationError } from '../src/index';
import { createSignedDelivery, type SignedDelivery } from '../src/testing';

const SECRET = 'fastify-secret-value';

describe('cspwatchFastify (Fastify 5, real HTTP)', () => {
  const received: string[] = [];
  const rejected: string[] = [];
  let failNext = false;
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    app = Fastify();
    // The rest of the app keeps Fastify's JSON parser.
    app.post('/other', async (request) => ({ echoed: request.body }));
    await app.register(async (webhooks) => {
      await webhooks.register(
        cspwatchFastify({
          secret: SECRET,
          maxBodyBytes: 4096,
          replay: { key: 'id' },
          onRejected: (error: WebhookVerificationError) => rejected.push(error.code),
        }),
      );
      webhooks.post('/webhooks/cspwatch', async (request, reply) => {
        const event = getCspwatchEvent(request);
        if (failNext) {
          failNext = false;
          throw new Error('database down');
        }
        received.push(event.id);
        return reply.code(204).send();
      });
    });
    await app.register(async (parsedScope) => {
      // A scope whose JSON parser already produces objects: the plugin must not guess.
      parsedScope.addContentTypeParser(
        'application/json',
        { parseAs: 'string' },
        (_req, body, done) => done(null, JSON.parse(body as string)),
      );
      await parsedScope.register(cspwatchFastify({ secret: SECRET }));
      parsedScope.post('/parsed', async () => ({ unreachable: true }));
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
  });

  const post = (path: string, { body, headers }: SignedDelivery) =>
    fetch(`${base}${path}`, { method: 'POST', headers, body }).then(async (response) => ({
      status: response.status,
      type: response.headers.get('content-type'),
      body: await response.text(),
    }));

  it('verifies a genuine delivery from the raw bytes and hands the alert to the handler', async () => {
    const delivery = await createSignedDelivery({ secret: SECRET });
    expect((await post('/webhooks/cspwatch', delivery)).status).toBe(204);
    expect(received).toContain((JSON.parse(delivery.body) as { id: string }).id);
  });

  it('refuses a changed body with 400 problem+json before the handler runs', async () => {
    const delivery = await createSignedDelivery({ secret: SECRET });
    const before = received.length;
    const response = await post('/webhooks/cspwatch', { ...delivery, body: `${delivery.body} ` });
    expect(response.status).toBe(400);
    expect(response.type).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(response.body)).toMatchObject({ status: 400, code: 'signature_mismatch' });
    expect(received.length).toBe(before);
    expect(rejected).toContain('signature_mismatch');
  });

  it('refuses a replay with 409, and releases the claim when the handler throws', async () => {
    const delivery = await createSignedDelivery({ secret: SECRET });
    failNext = true;
    expect((await post('/webhooks/cspwatch', delivery)).status).toBe(500);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await post('/webhooks/cspwatch', delivery)).status).toBe(204);
    const replay = await post('/webhooks/cspwatch', delivery);
    expect(replay.status).toBe(409);
    expect(JSON.parse(replay.body)).toMatchObject({ code: 'replayed_delivery' });
  });

  it('leaves the rest of the app on Fastify’s JSON parser', async () => {
    const response = await fetch(`${base}/other`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(await response.json()).toEqual({ echoed: { a: 1 } });
  });

  it('detects a body another parser already turned into an object (a setup error, 500)', async () => {
    const delivery = await createSignedDelivery({ secret: SECRET });
    const response = await post('/parsed', delivery);
    expect(response.status).toBe(500);
    expect(JSON.parse(response.body).message).toContain('request.rawBody');
  });

  it('lets Fastify refuse a body over maxBodyBytes with 413', async () => {
    const delivery = await createSignedDelivery({
      secret: SECRET,
      payload: `{"pad":"${'x'.repeat(5000)}"}`,
    });
    expect((await post('/webhooks/cspwatch', delivery)).status).toBe(413);
  });

  it('checks its options when created', () => {
    expect(() => cspwatchFastify({ secret: 'short' })).toThrow(/8\+ characters/);
    expect(() => cspwatchFastify({ secret: SECRET, maxBodyBytes: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_options' }),
    );
  });
});
