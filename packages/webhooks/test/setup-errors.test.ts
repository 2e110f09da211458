import express, { type ErrorRequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { cspwatchWebhook } from '../src/express';
import { createProblemResponse } from '../src/fetch';
import {
  isReceiverSetupError,
  isWebhookVerificationError,
  safeVerifyWebhook,
  verifyWebhook,
  WebhookVerificationError,
} from '../src/index';
import { createSignedDelivery } from '../src/testing';

const SECRET = 'setup-errors-secret';
const unsetEnvironmentVariable = undefined as unknown as string;

/** The README's quick-start handler, as written there. */
async function readmeHandler(secret: string, delivery: { body: string; headers: Headers }) {
  try {
    const event = await verifyWebhook({ body: delivery.body, headers: delivery.headers, secret });
    return new Response(null, { status: event.id ? 204 : 500 });
  } catch (error) {
    if (!isWebhookVerificationError(error) || isReceiverSetupError(error)) throw error;
    return new Response(error.code, { status: 400 });
  }
}

async function signedDelivery() {
  const { body, headers } = await createSignedDelivery({ secret: SECRET });
  return { body, headers: new Headers(headers) };
}

describe('a receiver setup mistake is a server error, never a refused delivery', () => {
  it.each([
    ['invalid_secret', true],
    ['invalid_options', true],
    ['body_not_raw', true],
    ['signature_mismatch', false],
    ['timestamp_too_old', false],
    ['replayed_delivery', false],
    ['body_too_large', false],
  ] as const)('isReceiverSetupError(%s) is %s', (code, expected) => {
    expect(isReceiverSetupError(new WebhookVerificationError(code, 'x'))).toBe(expected);
  });

  it('is false for anything that is not a WebhookVerificationError', () => {
    expect(isReceiverSetupError(new TypeError('invalid_secret'))).toBe(false);
    expect(isReceiverSetupError({ code: 'invalid_secret' })).toBe(false);
  });

  it('the README snippet rethrows an unset secret instead of answering 400', async () => {
    const delivery = await signedDelivery();
    await expect(readmeHandler(unsetEnvironmentVariable, delivery)).rejects.toMatchObject({
      code: 'invalid_secret',
    });
    expect((await readmeHandler('a-different-secret', delivery)).status).toBe(400);
    expect((await readmeHandler(SECRET, delivery)).status).toBe(204);
  });

  it('safeVerifyWebhook throws a setup mistake and returns a refused delivery', async () => {
    const delivery = await signedDelivery();
    await expect(
      safeVerifyWebhook({ ...delivery, secret: unsetEnvironmentVariable }),
    ).rejects.toMatchObject({ code: 'invalid_secret' });
    const refused = await safeVerifyWebhook({ ...delivery, secret: 'a-different-secret' });
    expect(refused).toMatchObject({ ok: false, code: 'signature_mismatch' });
  });

  it('createProblemResponse answers 500 for a setup mistake, 400 for a bad delivery', async () => {
    const setup = createProblemResponse(new WebhookVerificationError('invalid_secret', 'x'));
    expect(setup.status).toBe(500);
    expect(await setup.json()).toMatchObject({ status: 500, code: 'invalid_secret' });
    expect(
      createProblemResponse(new WebhookVerificationError('signature_mismatch', 'x')).status,
    ).toBe(400);
  });

  it('Express: a JSON parser that ran first reaches the error handler (500), not a 400', async () => {
    const app = express();
    const errors: string[] = [];
    app.post('/hook', express.json(), cspwatchWebhook({ secret: SECRET }), (_req, res) => {
      res.sendStatus(204);
    });
    const onError: ErrorRequestHandler = (error, _req, res, _next) => {
      errors.push((error as WebhookVerificationError).code);
      res.sendStatus(500);
    };
    app.use(onError);
    const { body, headers } = await createSignedDelivery({ secret: SECRET });
    const response = await request(app).post('/hook').set(headers).send(body);
    expect(response.status).toBe(500);
    expect(errors).toEqual(['body_not_raw']);
  });

  it('the adapters refuse an unset secret when they are built, at start-up', () => {
    expect(() => cspwatchWebhook({ secret: unsetEnvironmentVariable })).toThrow(/missing/);
  });
});
