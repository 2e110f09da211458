import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspwatchWebhook } from '../src/express';
import { cspwatchFastify } from '../src/fastify';
import { createSignedDelivery, type SignedDelivery } from '../src/testing';

const SECRET = 'client-abort-secret';

/** A promise with its resolve function, to wait on events rather than on the clock. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/**
 * One slow handler's steps, so a test can abort the client while the handler runs: the
 * handler says it started, waits until the server saw the connection close, is let go,
 * does its work (the side effect a replay must not repeat) and answers 204.
 */
function slowHandler() {
  const steps = {
    entered: deferred(),
    closed: deferred(),
    proceed: deferred(),
    done: deferred(),
    work: 0,
  };
  const run = async (onClose: (listener: () => void) => void, answer: () => void) => {
    onClose(() => steps.closed.resolve());
    steps.entered.resolve();
    await steps.proceed.promise;
    steps.work++;
    answer();
    steps.done.resolve();
  };
  return { steps, run };
}

/** Sends a delivery and destroys the connection once the handler has started. */
async function postThenAbort(
  url: string,
  { body, headers }: SignedDelivery,
  steps: ReturnType<typeof slowHandler>['steps'],
): Promise<void> {
  const req = httpRequest(url, { method: 'POST', headers, agent: false });
  req.on('error', () => {}); // the abort below: expected
  req.end(body);
  await steps.entered.promise;
  req.destroy();
  await steps.closed.promise;
  steps.proceed.resolve();
  await steps.done.promise;
}

const post = (url: string, { body, headers }: SignedDelivery) =>
  fetch(url, { method: 'POST', headers, body }).then(async (response) => ({
    status: response.status,
    body: await response.text(),
  }));

describe('replay guard when the client closes the connection mid-handler (Express 5)', () => {
  let slow = slowHandler();
  const app = express();
  for (const key of ['signature', 'id'] as const) {
    app.post(
      `/${key}`,
      express.raw({ type: 'application/json' }),
      cspwatchWebhook({ secret: SECRET, replay: { key } }),
      (_req, res) => {
        void slow.run(
          (listener) => res.on('close', listener),
          () => res.status(204).end(),
        );
      },
    );
  }
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  for (const key of ['signature', 'id'] as const) {
    it(`keeps the claim (key: '${key}'): the same delivery sent again is refused, the handler ran once`, async () => {
      slow = slowHandler();
      const delivery = await createSignedDelivery({ secret: SECRET });
      await postThenAbort(`${base}/${key}`, delivery, slow.steps);
      const replay = await post(`${base}/${key}`, delivery);
      expect(replay.status).toBe(409);
      expect(JSON.parse(replay.body)).toMatchObject({ code: 'replayed_delivery' });
      expect(slow.steps.work).toBe(1);
    });
  }
});

describe('replay guard when the client closes the connection mid-handler (Fastify 5)', () => {
  let slow = slowHandler();
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    app = Fastify();
    for (const key of ['signature', 'id'] as const) {
      await app.register(async (scope) => {
        await scope.register(cspwatchFastify({ secret: SECRET, replay: { key } }));
        scope.post(`/${key}`, (_request, reply) => {
          void slow.run(
            (listener) => reply.raw.on('close', listener),
            () => void reply.code(204).send(),
          );
          return reply;
        });
      });
    }
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
  });

  for (const key of ['signature', 'id'] as const) {
    it(`keeps the claim (key: '${key}'): the same delivery sent again is refused, the handler ran once`, async () => {
      slow = slowHandler();
      const delivery = await createSignedDelivery({ secret: SECRET });
      await postThenAbort(`${base}/${key}`, delivery, slow.steps);
      const replay = await post(`${base}/${key}`, delivery);
      expect(replay.status).toBe(409);
      expect(JSON.parse(replay.body)).toMatchObject({ code: 'replayed_delivery' });
      expect(slow.steps.work).toBe(1);
    });
  }
});
