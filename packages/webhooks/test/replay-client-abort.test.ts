import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler } from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspwatchWebhook } from '../src/express';
import { cspwatchFastify } from '../src/fastify';
import { createSampleAlert, createSignedDelivery, type SignedDelivery } from '../src/testing';

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
function slowHandler(fails = false) {
  const steps = {
    entered: deferred(),
    closed: deferred(),
    proceed: deferred(),
    done: deferred(),
    /** The server sent (or tried to send, the client gone) the failed handler's 500. */
    failureSent: deferred(),
    work: 0,
  };
  const run = async (
    onClose: (listener: () => void) => void,
    answer: (failed: boolean) => void,
  ) => {
    onClose(() => steps.closed.resolve());
    steps.entered.resolve();
    await steps.proceed.promise;
    if (!fails) steps.work++;
    try {
      answer(fails);
    } finally {
      steps.done.resolve();
    }
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

/** The handler of the test under way (each app's routes run it). */
let slow = slowHandler();

/** The cases every adapter must pass; `base` is the app's address once it listens. */
function abortCases(base: () => string) {
  for (const key of ['signature', 'id'] as const) {
    it(`keeps the claim (key: '${key}'): the same delivery sent again is refused, the handler ran once`, async () => {
      slow = slowHandler();
      const delivery = await createSignedDelivery({ secret: SECRET });
      await postThenAbort(`${base()}/${key}`, delivery, slow.steps);
      const replay = await post(`${base()}/${key}`, delivery);
      expect(replay.status).toBe(409);
      expect(JSON.parse(replay.body)).toMatchObject({ code: 'replayed_delivery' });
      expect(slow.steps.work).toBe(1);
    });
  }

  it("releases the claim when the handler fails after the client left: the sender's retry is accepted", async () => {
    slow = slowHandler(true);
    const payload = createSampleAlert();
    const first = await createSignedDelivery({ secret: SECRET, payload });
    await postThenAbort(`${base()}/id`, first, slow.steps);
    await slow.steps.failureSent.promise;
    const retry = await createSignedDelivery({ secret: SECRET, payload });
    slow = slowHandler();
    slow.steps.proceed.resolve();
    expect((await post(`${base()}/id`, retry)).status).toBe(204);
    expect(slow.steps.work).toBe(1);
  });
}

describe('replay guard when the client closes the connection mid-handler (Express 5)', () => {
  const app = express();
  for (const key of ['signature', 'id'] as const) {
    app.post(
      `/${key}`,
      express.raw({ type: 'application/json' }),
      cspwatchWebhook({ secret: SECRET, replay: { key } }),
      (_req, res, next) => {
        void slow.run(
          (listener) => res.on('close', listener),
          (failed) => (failed ? next(new Error('database down')) : res.status(204).end()),
        );
      },
    );
  }
  app.use(((_error, _req, res, _next) => {
    res.status(500).end();
    slow.steps.failureSent.resolve();
  }) satisfies ErrorRequestHandler);
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

  abortCases(() => base);
});

describe('replay guard when the client closes the connection mid-handler (Fastify 5)', () => {
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    app = Fastify();
    for (const key of ['signature', 'id'] as const) {
      await app.register(async (scope) => {
        await scope.register(cspwatchFastify({ secret: SECRET, replay: { key } }));
        // Runs after the plugin's own hooks: its release has started when this resolves.
        scope.addHook('onSend', async (_request, reply, payload) => {
          if (reply.statusCode >= 500) slow.steps.failureSent.resolve();
          return payload;
        });
        scope.post(`/${key}`, (_request, reply) => {
          return slow.run(
            (listener) => reply.raw.on('close', listener),
            (failed) => {
              if (failed) throw new Error('database down');
              void reply.code(204).send();
            },
          );
        });
      });
    }
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
  });

  abortCases(() => base);
});
