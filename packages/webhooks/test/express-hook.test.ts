import express from 'express';
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { budget } from '../../../test-budget';
import { cspwatchWebhook, type ExpressRequestLike } from '../src/express';
import { isWebhookVerificationError, type WebhookVerificationError } from '../src/index';
import { createSignedDelivery } from '../src/testing';

const SECRET = 'express-hook-secret';

function appWith(onRejected: (error: WebhookVerificationError, req: ExpressRequestLike) => void) {
  const app = express();
  const handled: unknown[] = [];
  const verify = cspwatchWebhook({ secret: SECRET, maxBodyBytes: 4096, onRejected });
  app.post('/hook', express.raw({ type: 'application/json' }), verify, (req, res) => {
    handled.push(req.body);
    res.status(204).end();
  });
  app.post('/stream', verify, (_req, res) => {
    res.status(204).end();
  });
  return { app, handled };
}

describe('cspwatchWebhook onRejected', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('is called with the error and the request before the 400 is sent', async () => {
    const seen: { code: string; path: unknown; headersSent: boolean }[] = [];
    const { app, handled } = appWith((error, req) => {
      const { path, res } = req as ExpressRequestLike & {
        path: string;
        res: { headersSent: boolean };
      };
      seen.push({ code: error.code, path, headersSent: res.headersSent });
    });
    const { body, headers } = await createSignedDelivery({ secret: 'wrong-secret-value' });
    const response = await request(app).post('/hook').set(headers).send(body).expect(400);
    expect(response.body.code).toBe('signature_mismatch');
    expect(seen).toEqual([{ code: 'signature_mismatch', path: '/hook', headersSent: false }]);
    expect(handled).toHaveLength(0);
  });

  it('sees body_too_large before the 413', async () => {
    const codes: string[] = [];
    const { app } = appWith((error) => codes.push(error.code));
    const { headers } = await createSignedDelivery({ secret: SECRET });
    await request(app).post('/stream').set(headers).send('x'.repeat(5000)).expect(413);
    expect(codes).toEqual(['body_too_large']);
  });

  it('is not called for a genuine delivery', async () => {
    const hook = vi.fn();
    const { app, handled } = appWith(hook);
    const { body, headers } = await createSignedDelivery({ secret: SECRET });
    await request(app).post('/hook').set(headers).send(body).expect(204);
    expect(hook).not.toHaveBeenCalled();
    expect(handled).toHaveLength(1);
  });

  it('cannot swallow the rejection: a throwing hook still gets a 400 and a warning', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const { app, handled } = appWith(() => {
      throw new Error('logger down');
    });
    const { body, headers } = await createSignedDelivery({ secret: SECRET });
    const response = await request(app)
      .post('/hook')
      .set({ ...headers, 'x-cspwatch-signature': `sha256=${'0'.repeat(64)}` })
      .send(body)
      .expect(400);
    expect(response.body.code).toBe('signature_mismatch');
    expect(handled).toHaveLength(0);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'logger down' }),
      'CspwatchWebhookWarning',
    );
  });

  it('cannot swallow the rejection: a rejecting async hook still gets a 400 and a warning', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const received: unknown[] = [];
    const { app } = appWith(async (error) => {
      received.push(error);
      throw new Error('async logger down');
    });
    const { body, headers } = await createSignedDelivery({ secret: SECRET, timestamp: 1 });
    const response = await request(app).post('/hook').set(headers).send(body).expect(400);
    expect(response.body.code).toBe('timestamp_too_old');
    expect(isWebhookVerificationError(received[0])).toBe(true);
    await vi.waitFor(
      () =>
        expect(warn).toHaveBeenCalledWith(
          expect.objectContaining({ message: 'async logger down' }),
          'CspwatchWebhookWarning',
        ),
      { timeout: budget(5_000) },
    );
  });

  it('refuses a hook that is not a function when the middleware is created', () => {
    expect(() =>
      cspwatchWebhook({ secret: SECRET, onRejected: 'log' as unknown as () => void }),
    ).toThrow(
      expect.objectContaining({
        code: 'invalid_options',
        message: expect.stringMatching(/onRejected/),
      }),
    );
  });
});
