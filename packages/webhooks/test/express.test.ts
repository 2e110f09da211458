import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspwatchWebhook, getCspwatchEvent } from '../src/express';
import { createSignedDelivery } from '../src/testing';

const SECRET = 'express-secret-value';

function createApp() {
  const app = express();
  const received: unknown[] = [];
  const handler: express.RequestHandler = (req, res) => {
    received.push(getCspwatchEvent(req));
    res.status(204).end();
  };
  const verify = cspwatchWebhook({ secret: SECRET });

  app.post('/raw', express.raw({ type: 'application/json' }), verify, handler);
  app.post(
    '/json-with-raw-copy',
    express.json({
      verify: (req, _res, buf) => {
        (req as unknown as { rawBody: Buffer }).rawBody = buf;
      },
    }),
    verify,
    handler,
  );
  app.post('/no-parser', verify, handler);
  app.post('/small', cspwatchWebhook({ secret: SECRET, maxBodyBytes: 64 }), handler);
  app.post('/json-only', express.json(), verify, handler);
  const onError: ErrorRequestHandler = (error: Error & { code?: string }, _req, res, _next) => {
    res.status(500).json({ code: error.code, message: error.message });
  };
  app.use(onError);
  return { app, received };
}

describe('cspwatchWebhook (Express 5, real HTTP)', () => {
  const { app, received } = createApp();
  let server: Server;

  beforeAll(async () => {
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it.each(['/raw', '/json-with-raw-copy', '/no-parser'])(
    'verifies a genuine delivery on %s',
    async (path) => {
      const { body, headers } = await createSignedDelivery({ secret: SECRET });
      const before = received.length;
      await request(server).post(path).set(headers).send(body).expect(204);
      expect(received.length).toBe(before + 1);
      expect(received.at(-1)).toEqual(JSON.parse(body));
    },
  );

  it.each(['/raw', '/json-with-raw-copy', '/no-parser'])(
    'answers a forged delivery on %s with 400 problem+json and never calls the handler',
    async (path) => {
      const { body, headers } = await createSignedDelivery({ secret: 'some-other-secret' });
      const before = received.length;
      const response = await request(server).post(path).set(headers).send(body).expect(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body).toMatchObject({
        status: 400,
        code: 'signature_mismatch',
        title: 'Bad Request',
      });
      expect(received.length).toBe(before);
    },
  );

  it('rejects a missing signature header with 400 missing_header', async () => {
    const { body, headers } = await createSignedDelivery({ secret: SECRET });
    const response = await request(server)
      .post('/raw')
      .set({
        'content-type': headers['content-type'],
        'x-cspwatch-timestamp': headers['x-cspwatch-timestamp'],
      })
      .send(body)
      .expect(400);
    expect(response.body.code).toBe('missing_header');
  });

  it('rejects a stale delivery with 400 timestamp_too_old', async () => {
    const { body, headers } = await createSignedDelivery({
      secret: SECRET,
      timestamp: Date.now() - 600_000,
    });
    const response = await request(server).post('/no-parser').set(headers).send(body).expect(400);
    expect(response.body.code).toBe('timestamp_too_old');
  });

  it('fails loudly when express.json() consumed the body without a raw copy', async () => {
    const { body, headers } = await createSignedDelivery({ secret: SECRET });
    const before = received.length;
    const response = await request(server).post('/json-only').set(headers).send(body).expect(500);
    expect(response.body.code).toBe('body_not_raw');
    expect(response.body.message).toContain("express.raw({ type: 'application/json' })");
    expect(response.body.message).toContain('req.rawBody = buf');
    expect(received.length).toBe(before);
  });

  it('refuses a body over maxBodyBytes with 413 without reading it', async () => {
    const { body, headers } = await createSignedDelivery({ secret: SECRET });
    const response = await request(server).post('/small').set(headers).send(body).expect(413);
    expect(response.body.code).toBe('body_too_large');
  });

  it('refuses a chunked body over maxBodyBytes with 413', async () => {
    const { body, headers } = await createSignedDelivery({ secret: SECRET });
    const { port } = server.address() as AddressInfo;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body));
        controller.close();
      },
    });
    const response = await fetch(`http://127.0.0.1:${port}/small`, {
      method: 'POST',
      headers,
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'body_too_large' });
  });

  it('refuses bad options when the middleware is created, not on the first request', () => {
    expect(() => cspwatchWebhook({ secret: 'short' })).toThrow(/8\+ characters/);
    expect(() => cspwatchWebhook({ secret: SECRET, maxBodyBytes: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_options' }),
    );
    expect(() => cspwatchWebhook({ secret: SECRET, toleranceMs: -5 })).toThrow(/toleranceMs/);
  });

  it('getCspwatchEvent throws when the middleware did not run', () => {
    expect(() => getCspwatchEvent({})).toThrow(/mount cspwatchWebhook/);
  });
});
