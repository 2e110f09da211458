import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { verifyRequest } from '../src/fetch';
import { createReplayGuard, releaseReplayClaim } from '../src/index';
import { verifyNextApiRequest, withCspwatchWebhook } from '../src/next';
import { createSampleAlert, createSignedDelivery } from '../src/testing';

const SECRET = 'fetch-replay-secret';
const URL_ = 'https://receiver.example/api/cspwatch';

const requestOf = ({ body, headers }: { body: string; headers: Record<string, string> }) =>
  new Request(URL_, { method: 'POST', headers, body });

describe('replay guard in the Fetch and Next.js adapters', () => {
  it('verifyRequest claims with the guard it is given; releaseReplayClaim frees it', async () => {
    const replay = createReplayGuard();
    const delivery = await createSignedDelivery({ secret: SECRET });
    const event = await verifyRequest(requestOf(delivery), { secret: SECRET, replay });
    await expect(
      verifyRequest(requestOf(delivery), { secret: SECRET, replay }),
    ).rejects.toMatchObject({
      code: 'replayed_delivery',
    });
    await releaseReplayClaim(event);
    await expect(verifyRequest(requestOf(delivery), { secret: SECRET, replay })).resolves.toEqual(
      event,
    );
  });

  it('verifyRequest refuses guard options (a new store per request would guard nothing)', async () => {
    const delivery = await createSignedDelivery({ secret: SECRET });
    await expect(
      verifyRequest(requestOf(delivery), { secret: SECRET, replay: {} as never }),
    ).rejects.toMatchObject({
      code: 'invalid_options',
      message: expect.stringMatching(/createReplayGuard/),
    });
  });

  it('withCspwatchWebhook answers 409 to a replay and releases when the handler throws or 5xx', async () => {
    let mode: 'ok' | 'throw' | '500' = 'ok';
    const POST = withCspwatchWebhook(
      async () => {
        if (mode === 'throw') throw new Error('boom');
        return new Response(null, { status: mode === '500' ? 500 : 204 });
      },
      { secret: SECRET, replay: { key: 'id' } },
    );
    const alert = createSampleAlert();
    const send = async () =>
      POST(requestOf(await createSignedDelivery({ secret: SECRET, payload: alert })), {});
    mode = 'throw';
    await expect(send()).rejects.toThrow('boom');
    mode = '500';
    expect((await send()).status).toBe(500);
    await new Promise((resolve) => setTimeout(resolve, 10));
    mode = 'ok';
    expect((await send()).status).toBe(204);
    const replayed = await send();
    expect(replayed.status).toBe(409);
    expect(replayed.headers.get('content-type')).toBe('application/problem+json');
    expect(await replayed.json()).toMatchObject({ code: 'replayed_delivery', status: 409 });
  });

  it('withCspwatchWebhook answers 503 + Retry-After when the store is down', async () => {
    const store = {
      claim: () => Promise.reject(new Error('ECONNREFUSED')),
      release: async () => {},
    };
    const POST = withCspwatchWebhook(async () => new Response(null, { status: 204 }), {
      secret: SECRET,
      replay: { store },
    });
    const response = await POST(requestOf(await createSignedDelivery({ secret: SECRET })), {});
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('60');
  });

  it('verifyNextApiRequest (Pages Router) claims with its guard', async () => {
    const replay = createReplayGuard();
    const delivery = await createSignedDelivery({ secret: SECRET });
    const req = () =>
      Object.assign(Readable.from([Buffer.from(delivery.body)]), { headers: delivery.headers });
    await expect(verifyNextApiRequest(req(), { secret: SECRET, replay })).resolves.toBeDefined();
    await expect(verifyNextApiRequest(req(), { secret: SECRET, replay })).rejects.toMatchObject({
      code: 'replayed_delivery',
    });
  });
});
