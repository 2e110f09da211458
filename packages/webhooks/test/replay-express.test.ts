import { Agent, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';
import { cspwatchWebhook, getCspwatchEvent } from '../src/express';
import { createMemoryReplayStore } from '../src/index';
import { createSampleAlert, createSignedDelivery, type SignedDelivery } from '../src/testing';

const SECRET = 'express-replay-secret';

/** Runs `tasks` with at most `limit` in flight. */
async function runBounded<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

describe('cspwatchWebhook replay guard (Express 5, real HTTP)', () => {
  const accepted: string[] = [];
  let failNext = 0;
  const app = express();
  app.post(
    '/signature',
    express.raw({ type: 'application/json' }),
    cspwatchWebhook({ secret: SECRET, replay: true }),
    (req, res) => {
      accepted.push(getCspwatchEvent(req).id);
      res.status(204).end();
    },
  );
  app.post(
    '/flaky',
    express.raw({ type: 'application/json' }),
    cspwatchWebhook({ secret: SECRET, replay: { key: 'id' } }),
    (_req, res, next) => {
      if (failNext > 0) {
        failNext--;
        if (failNext % 2 === 0) return next(new Error('database down'));
        return void res.status(503).end();
      }
      res.status(204).end();
    },
  );
  app.post(
    '/tiny-store',
    express.raw({ type: 'application/json' }),
    cspwatchWebhook({
      secret: SECRET,
      replay: { store: createMemoryReplayStore({ maxEntries: 1 }) },
    }),
    (_req, res) => void res.status(204).end(),
  );
  const onError: ErrorRequestHandler = (_error, _req, res, _next) => {
    res.status(500).end();
  };
  app.use(onError);

  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  // Plain node:http with a keep-alive pool: the load test is bound by the client otherwise.
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const post = (path: string, { body, headers }: SignedDelivery) =>
    new Promise<{ status: number; body: string; retryAfter: string | undefined }>(
      (resolve, reject) => {
        const req = httpRequest(
          `${base}${path}`,
          { method: 'POST', headers, agent },
          (response) => {
            let text = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              text += chunk;
            });
            response.on('end', () =>
              resolve({
                status: response.statusCode ?? 0,
                body: text,
                retryAfter: response.headers['retry-after'] as string | undefined,
              }),
            );
            response.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      },
    );

  it(
    'accepts 100 first deliveries and 0 of 10,000 concurrent replays of them',
    async () => {
      const deliveries = await Promise.all(
        Array.from({ length: 100 }, () => createSignedDelivery({ secret: SECRET })),
      );
      const ids = deliveries.map((delivery) => (JSON.parse(delivery.body) as { id: string }).id);
      // First deliveries and replays race: each of the 100 is sent 101 times, all interleaved.
      const tasks = Array.from(
        { length: 10_100 },
        (_, index) => () => post('/signature', deliveries[index % 100]!),
      );
      const results = await runBounded(tasks, 64);
      const statuses = new Map<number, number>();
      for (const { status } of results) statuses.set(status, (statuses.get(status) ?? 0) + 1);
      expect(Object.fromEntries(statuses)).toEqual({ 204: 100, 409: 10_000 });
      expect(accepted.sort()).toEqual([...ids].sort());
      const refused = results.find((result) => result.status === 409)!;
      expect(JSON.parse(refused.body)).toMatchObject({ status: 409, code: 'replayed_delivery' });
    },
    budget(60_000),
  );

  it('releases the claim when the handler answers 5xx or errors, so the retry is accepted', async () => {
    const alert = createSampleAlert();
    failNext = 2; // first attempt: 503 from the handler; second: next(error) -> 500
    const attempt = () => createSignedDelivery({ secret: SECRET, payload: alert });
    expect((await post('/flaky', await attempt())).status).toBe(503);
    expect((await post('/flaky', await attempt())).status).toBe(500);
    // The release runs when the response finishes; give the event loop a turn.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await post('/flaky', await attempt())).status).toBe(204);
    // Now it succeeded: the same alert again is a duplicate, even re-signed.
    expect((await post('/flaky', await attempt())).status).toBe(409);
  });

  it('answers 503 with Retry-After when the store is full, and never accepts the replay', async () => {
    const first = await createSignedDelivery({ secret: SECRET });
    const second = await createSignedDelivery({ secret: SECRET });
    expect((await post('/tiny-store', first)).status).toBe(204);
    const full = await post('/tiny-store', second);
    expect(full.status).toBe(503);
    expect(full.retryAfter).toBe('60');
    expect(JSON.parse(full.body)).toMatchObject({ code: 'replay_store_unavailable' });
    expect((await post('/tiny-store', first)).status).toBe(409);
  });

  it('does not claim an unsigned or forged request (the store is never filled by them)', async () => {
    const genuine = await createSignedDelivery({ secret: SECRET });
    const forged = { ...genuine, body: genuine.body.replace('"', ' "') };
    expect((await post('/tiny-store', forged)).status).toBe(400);
  });
});
