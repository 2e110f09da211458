import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProblemResponse, verifyRequest } from '../src/fetch';
import { isWebhookVerificationError, WebhookVerificationError } from '../src/index';
import { verifyNextApiRequest, withCspwatchWebhook } from '../src/next';
import { createSampleAlert, createSignedDelivery } from '../src/testing';

const SECRET = 'fetch-secret-value';
const URL_ = 'https://receiver.example/api/cspwatch';

async function deliveryRequest(secret = SECRET, mutate: (body: string) => string = (b) => b) {
  const { body, headers } = await createSignedDelivery({ secret });
  return { body, request: new Request(URL_, { method: 'POST', headers, body: mutate(body) }) };
}

describe('verifyRequest (Fetch Request)', () => {
  it('returns the alert of a genuine Request', async () => {
    const { body, request } = await deliveryRequest();
    expect(await verifyRequest(request, { secret: SECRET })).toEqual(JSON.parse(body));
  });

  it('rejects a Request whose body was altered', async () => {
    const { request } = await deliveryRequest(SECRET, (body) =>
      body.replace('Test alert', 'Tost alert'),
    );
    await expect(verifyRequest(request, { secret: SECRET })).rejects.toMatchObject({
      code: 'signature_mismatch',
    });
  });

  it('explains a body that was already read', async () => {
    const { request } = await deliveryRequest();
    await request.text();
    const error = await verifyRequest(request, { secret: SECRET }).catch((e: unknown) => e);
    expect(isWebhookVerificationError(error) && error.code).toBe('body_not_raw');
    expect((error as Error).message).toContain('request.clone()');
  });

  it('createProblemResponse answers 400 application/problem+json', async () => {
    const response = createProblemResponse(
      new WebhookVerificationError('signature_mismatch', 'no match'),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toEqual({
      type: 'urn:cspwatch:problem:signature_mismatch',
      title: 'Bad Request',
      status: 400,
      detail: 'no match',
      code: 'signature_mismatch',
    });
  });
});

describe('withCspwatchWebhook (Next.js App Router)', () => {
  const calls: unknown[] = [];
  const POST = withCspwatchWebhook(
    async (event, _request, context: { params: Promise<Record<string, string>> }) => {
      calls.push({ event, params: await context.params });
      return Response.json({ received: event.id }, { status: 200 });
    },
    { secret: SECRET },
  );
  const context = { params: Promise.resolve({ channel: 'main' }) };

  it('calls the handler with the verified event and the route context', async () => {
    const { body, request } = await deliveryRequest();
    const response = await POST(request, context);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: JSON.parse(body).id });
    expect(calls.at(-1)).toEqual({ event: JSON.parse(body), params: { channel: 'main' } });
  });

  it('answers an invalid delivery with 400 problem+json without calling the handler', async () => {
    const before = calls.length;
    const { request } = await deliveryRequest('wrong-secret-value');
    const response = await POST(request, context);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({ code: 'signature_mismatch' });
    expect(calls.length).toBe(before);
  });

  it('checks options when the route module loads', () => {
    expect(() => withCspwatchWebhook(async () => new Response(), { secret: 'short' })).toThrow(
      /8\+ characters/,
    );
  });
});

describe('verifyNextApiRequest (Next.js Pages Router)', () => {
  function apiRequest(body: string, headers: Record<string, string>, parsedBody?: unknown) {
    const stream = Readable.from([Buffer.from(body.slice(0, 10)), Buffer.from(body.slice(10))]);
    const lowered = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]),
    );
    return Object.assign(stream, { headers: lowered, body: parsedBody });
  }

  it('reads the raw stream (bodyParser: false) and returns the alert', async () => {
    const alert = createSampleAlert({ rule: 'Ünïcödé rule ☃' });
    const { body, headers } = await createSignedDelivery({ secret: SECRET, payload: alert });
    expect(await verifyNextApiRequest(apiRequest(body, headers), { secret: SECRET })).toEqual(
      alert,
    );
  });

  it('refuses a body already parsed by Next and says to disable bodyParser', async () => {
    const { body, headers } = await createSignedDelivery({ secret: SECRET });
    const error = await verifyNextApiRequest(apiRequest(body, headers, JSON.parse(body)), {
      secret: SECRET,
    }).catch((e: unknown) => e);
    expect(isWebhookVerificationError(error) && error.code).toBe('body_not_raw');
    expect((error as Error).message).toContain('bodyParser: false');
  });

  it('stops reading a body over maxBodyBytes', async () => {
    const { body, headers } = await createSignedDelivery({ secret: SECRET });
    await expect(
      verifyNextApiRequest(apiRequest(body, headers), { secret: SECRET, maxBodyBytes: 32 }),
    ).rejects.toMatchObject({ code: 'body_too_large' });
  });
});

describe('withCspwatchWebhook onRejected', () => {
  it('is called with each refusal before the 400 is sent, and a throwing hook changes nothing', async () => {
    const seen: string[] = [];
    const POST = withCspwatchWebhook(async () => new Response(null, { status: 204 }), {
      secret: SECRET,
      onRejected: (error, request) => {
        seen.push(`${error.code} ${new URL(request.url).pathname}`);
        throw new Error('logger down');
      },
    });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const { request } = await deliveryRequest('another-secret-value');
      const response = await POST(request, {});
      expect(response.status).toBe(400);
      expect(seen).toEqual(['signature_mismatch /api/cspwatch']);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toContain('logger down');
      const good = await deliveryRequest();
      expect((await POST(good.request, {})).status).toBe(204);
      expect(seen).toHaveLength(1);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('refuses a hook that is not a function when the route is built', () => {
    expect(() =>
      withCspwatchWebhook(async () => new Response(), {
        secret: SECRET,
        onRejected: 'log' as never,
      }),
    ).toThrow(/onRejected: must be a function/);
  });
});
