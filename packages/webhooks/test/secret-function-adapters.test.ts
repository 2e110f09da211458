/**
 * Every adapter takes `secret` as a function: it is created without the secret (as when
 * `next build` loads a route module), and a request that finds no valid secret is the
 * receiver's setup error, answered 500 through the adapter's error path, never a 400 refusal.
 */
import type { Server } from 'node:http';
import { Readable } from 'node:stream';
import express, { type ErrorRequestHandler } from 'express';
import Fastify from 'fastify';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspwatchWebhook } from '../src/express';
import { cspwatchFastify, getCspwatchEvent } from '../src/fastify';
import { createProblemResponse, verifyRequest } from '../src/fetch';
import { isWebhookVerificationError, type WebhookVerificationError } from '../src/index';
import { verifyNextApiRequest, withCspwatchWebhook } from '../src/next';
import { createSignedDelivery } from '../src/testing';

const SECRET = 'secret-function-adapters';

/** Stands for the environment: the secret is unset until a test sets it. */
function environment() {
  const env: { secret?: string } = {};
  return { env, secret: () => env.secret, asyncSecret: async () => env.secret };
}

describe('adapters created with a secret function, before the secret exists', () => {
  it('create without throwing, while a bad plain secret still throws at creation', () => {
    const { secret } = environment();
    const handler = async () => new Response(null, { status: 204 });
    expect(() => cspwatchWebhook({ secret })).not.toThrow();
    expect(() => cspwatchFastify({ secret })).not.toThrow();
    expect(() => withCspwatchWebhook(handler, { secret })).not.toThrow();
    const unset = undefined as unknown as string;
    expect(() => cspwatchWebhook({ secret: unset })).toThrow(/unset environment variable/);
    expect(() => cspwatchFastify({ secret: 'short' })).toThrow(/8\+ characters/);
    expect(() => withCspwatchWebhook(handler, { secret: unset })).toThrow(/unset environment/);
  });
});

describe('Express (real HTTP) with a secret function', () => {
  const { env, secret } = environment();
  const rejected: string[] = [];
  const errors: unknown[] = [];
  let handled = 0;
  let server: Server;

  beforeAll(async () => {
    const app = express();
    app.post(
      '/webhooks/cspwatch',
      cspwatchWebhook({ secret, onRejected: (error) => rejected.push(error.code) }),
      (_req, res) => {
        handled += 1;
        res.sendStatus(204);
      },
    );
    const onError: ErrorRequestHandler = (error, _req, res, _next) => {
      errors.push(error);
      res.sendStatus(500);
    };
    app.use(onError);
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers 500 through the error handler while the secret is unset, then verifies once set', async () => {
    const { body, headers } = await createSignedDelivery({ secret: SECRET });
    await request(server).post('/webhooks/cspwatch').set(headers).send(body).expect(500);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'invalid_secret' });
    expect(rejected).toEqual([]); // not a refused delivery
    expect(handled).toBe(0);

    env.secret = SECRET;
    await request(server).post('/webhooks/cspwatch').set(headers).send(body).expect(204);
    expect(handled).toBe(1);
  });
});

describe('Fastify (real HTTP) with an async secret function', () => {
  const { env, asyncSecret } = environment();
  const rejected: string[] = [];
  const app = Fastify();
  let base = '';

  beforeAll(async () => {
    await app.register(async (webhooks) => {
      await webhooks.register(
        cspwatchFastify({
          secret: asyncSecret,
          onRejected: (error: WebhookVerificationError) => rejected.push(error.code),
        }),
      );
      webhooks.post('/webhooks/cspwatch', async (req, reply) => {
        getCspwatchEvent(req);
        return reply.code(204).send();
      });
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers 500 while the secret is unset, then verifies once set', async () => {
    const { body, headers } = await createSignedDelivery({ secret: SECRET });
    const post = () => fetch(`${base}/webhooks/cspwatch`, { method: 'POST', body, headers });
    const unset = await post();
    expect(unset.status).toBe(500);
    expect(await unset.text()).not.toContain(SECRET);
    expect(rejected).toEqual([]);
    env.secret = SECRET;
    expect((await post()).status).toBe(204);
  });
});

describe('Next.js and Fetch adapters with a secret function', () => {
  it('withCspwatchWebhook rethrows invalid_secret (Next answers 500) and verifies once set', async () => {
    const { env, asyncSecret } = environment();
    const rejected: string[] = [];
    const POST = withCspwatchWebhook(async (event) => Response.json({ received: event.id }), {
      secret: asyncSecret,
      onRejected: (error) => rejected.push(error.code),
    });
    const { body, headers } = await createSignedDelivery({ secret: SECRET });
    const send = () =>
      POST(new Request('https://receiver.example/api', { method: 'POST', body, headers }), {});
    await expect(send()).rejects.toMatchObject({ code: 'invalid_secret' });
    expect(rejected).toEqual([]);
    env.secret = SECRET;
    expect((await send()).status).toBe(200);
  });

  it('verifyRequest + createProblemResponse answers 500, never 400, for a failing function', async () => {
    const { body, headers } = await createSignedDelivery({ secret: SECRET });
    const error = await verifyRequest(
      new Request('https://receiver.example/api', { method: 'POST', body, headers }),
      {
        secret: () => {
          throw new Error('vault unreachable');
        },
      },
    ).catch((e: unknown) => e);
    expect(isWebhookVerificationError(error)).toBe(true);
    const response = createProblemResponse(error as WebhookVerificationError);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ status: 500, code: 'invalid_secret' });
  });

  it('verifyNextApiRequest calls the function per request', async () => {
    const { body, headers } = await createSignedDelivery({ secret: SECRET });
    const apiRequest = () =>
      Object.assign(Readable.from([Buffer.from(body)]), {
        headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
        body: undefined,
      });
    let calls = 0;
    const secret = () => {
      calls += 1;
      return [SECRET, 'previous-secret'];
    };
    expect(await verifyNextApiRequest(apiRequest(), { secret })).toEqual(JSON.parse(body));
    expect(await verifyNextApiRequest(apiRequest(), { secret })).toEqual(JSON.parse(body));
    expect(calls).toBe(2);
  });
});
