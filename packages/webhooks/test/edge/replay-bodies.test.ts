import { describe, expect, it } from 'vitest';
import { readRawBody, verifyRequest } from '../../src/fetch';
import {
  createMemoryReplayStore,
  createReplayGuard,
  safeVerifyWebhook,
  signWebhook,
  verifyWebhook,
} from '../../src/index';
import { withCspwatchWebhook } from '../../src/next';
import { createSignedDelivery } from '../../src/testing';

/** The Web path's new parts under the Edge runtime, with Node built-ins banned. */
describe('replay guard and bodies on the Edge runtime', () => {
  const secret = 'edge-runtime-secret';
  const now = () => 1_700_000_000_000;

  it('verifies ArrayBuffer, DataView and streamed bodies, refuses lone surrogates and duplicates', async () => {
    const body = '{"eventType":"csp-violation:new-type","findings":[]}';
    const headers = await signWebhook({ body, secret, timestamp: now() });
    const bytes = new TextEncoder().encode(body);
    await verifyWebhook({ body: bytes.buffer, headers, secret, now });
    await verifyWebhook({ body: new DataView(bytes.buffer), headers, secret, now });
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(body);
        controller.close();
      },
    });
    await verifyWebhook({ body: await readRawBody(stream), headers, secret, now });
    const lone = await safeVerifyWebhook({ body: `${body}\uD800`, headers, secret, now });
    expect(lone.ok === false && lone.code).toBe('body_not_well_formed');
    const twice = await safeVerifyWebhook({
      body,
      headers: { ...headers, 'X-CSPWATCH-SIGNATURE': headers['x-cspwatch-signature'] },
      secret,
      now,
    });
    expect(twice.ok === false && twice.code).toBe('malformed_signature');
  });

  it('refuses a replay through verifyRequest and the App Router wrapper', async () => {
    const replay = createReplayGuard({ store: createMemoryReplayStore() });
    const delivery = await createSignedDelivery({ secret });
    const request = () => new Request('https://example.com/', { method: 'POST', ...delivery });
    await verifyRequest(request(), { secret, replay });
    await expect(verifyRequest(request(), { secret, replay })).rejects.toMatchObject({
      code: 'replayed_delivery',
    });
    const POST = withCspwatchWebhook(async () => new Response(null, { status: 204 }), {
      secret,
      replay: true,
    });
    expect((await POST(request(), {})).status).toBe(204);
    expect((await POST(request(), {})).status).toBe(409);
  });
});
