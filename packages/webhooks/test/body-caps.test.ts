import { describe, expect, it } from 'vitest';
import { verifyRequest } from '../src/fetch';
import { withCspwatchWebhook } from '../src/next';
import { createSampleAlert, createSignedDelivery } from '../src/testing';

const SECRET = 'caps-secret-value';
const URL_ = 'https://receiver.example/api/cspwatch';

/** A body stream that counts what was pulled from it and whether it was cancelled. */
function countingStream(chunks: Uint8Array[], endless = false) {
  const state = { pulled: 0, cancelled: false };
  let index = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[index++] ?? (endless ? new Uint8Array(1024).fill(32) : undefined);
        if (chunk === undefined) return controller.close();
        state.pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

function streamedRequest(headers: Record<string, string>, stream: ReadableStream<Uint8Array>) {
  return new Request(URL_, {
    method: 'POST',
    headers,
    body: stream,
    duplex: 'half',
  } as RequestInit);
}

describe('verifyRequest body cap (maxBodyBytes)', () => {
  it('refuses a declared content-length over the cap without reading a byte', async () => {
    const { headers } = await createSignedDelivery({ secret: SECRET });
    const { stream, state } = countingStream([], true);
    const request = streamedRequest({ ...headers, 'content-length': '2000000' }, stream);
    await expect(verifyRequest(request, { secret: SECRET })).rejects.toMatchObject({
      code: 'body_too_large',
    });
    expect(state.pulled).toBe(0);
  });

  it('stops reading a stream with no content-length past the cap and cancels it', async () => {
    const { headers } = await createSignedDelivery({ secret: SECRET });
    const { stream, state } = countingStream([], true);
    const request = streamedRequest(headers, stream);
    await expect(
      verifyRequest(request, { secret: SECRET, maxBodyBytes: 10_000 }),
    ).rejects.toMatchObject({ code: 'body_too_large' });
    expect(state.pulled).toBeLessThanOrEqual(10_000 + 1024);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(state.cancelled).toBe(true);
  });

  it('verifies the exact bytes of a chunked body, multibyte characters split across chunks', async () => {
    const alert = createSampleAlert({ rule: 'Ünïcödé ☃ 🚨 rule' });
    const { body, headers } = await createSignedDelivery({ secret: SECRET, payload: alert });
    const bytes = new TextEncoder().encode(body);
    const chunks = [];
    for (let offset = 0; offset < bytes.length; offset += 7)
      chunks.push(bytes.slice(offset, offset + 7));
    const { stream } = countingStream(chunks);
    expect(await verifyRequest(streamedRequest(headers, stream), { secret: SECRET })).toEqual(
      alert,
    );
  });

  it('accepts a body of exactly maxBodyBytes and refuses one byte more', async () => {
    const { body, headers } = await createSignedDelivery({ secret: SECRET });
    const size = new TextEncoder().encode(body).length;
    const make = () => new Request(URL_, { method: 'POST', headers, body });
    await expect(
      verifyRequest(make(), { secret: SECRET, maxBodyBytes: size }),
    ).resolves.toBeTruthy();
    await expect(
      verifyRequest(make(), { secret: SECRET, maxBodyBytes: size - 1 }),
    ).rejects.toMatchObject({ code: 'body_too_large' });
  });

  it('caps a request-like object that only offers arrayBuffer()', async () => {
    const { body, headers } = await createSignedDelivery({ secret: SECRET });
    const requestLike = {
      headers: new Headers(headers),
      arrayBuffer: async () => new TextEncoder().encode(body).buffer as ArrayBuffer,
    };
    await expect(verifyRequest(requestLike, { secret: SECRET })).resolves.toBeTruthy();
    await expect(
      verifyRequest(requestLike, { secret: SECRET, maxBodyBytes: 16 }),
    ).rejects.toMatchObject({ code: 'body_too_large' });
  });

  it('refuses a bad maxBodyBytes with invalid_options', async () => {
    const { body, headers } = await createSignedDelivery({ secret: SECRET });
    const request = new Request(URL_, { method: 'POST', headers, body });
    await expect(verifyRequest(request, { secret: SECRET, maxBodyBytes: 0 })).rejects.toMatchObject(
      {
        code: 'invalid_options',
        message: expect.stringMatching(/maxBodyBytes/),
      },
    );
  });
});

describe('withCspwatchWebhook body cap', () => {
  const calls: unknown[] = [];
  const POST = withCspwatchWebhook(
    async (event) => {
      calls.push(event);
      return new Response(null, { status: 204 });
    },
    { secret: SECRET, maxBodyBytes: 4096 },
  );

  it('answers 413 problem+json past maxBodyBytes without calling the handler', async () => {
    const { headers } = await createSignedDelivery({ secret: SECRET });
    const { stream, state } = countingStream([], true);
    const response = await POST(streamedRequest(headers, stream), {});
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 413, code: 'body_too_large' });
    expect(calls).toHaveLength(0);
    expect(state.pulled).toBeLessThanOrEqual(4096 + 1024);
  });

  it('still passes a genuine delivery under the cap', async () => {
    const { body, headers } = await createSignedDelivery({ secret: SECRET });
    const response = await POST(new Request(URL_, { method: 'POST', headers, body }), {});
    expect(response.status).toBe(204);
    expect(calls).toEqual([JSON.parse(body)]);
  });

  it('checks maxBodyBytes when the route module loads', () => {
    expect(() =>
      withCspwatchWebhook(async () => new Response(), { secret: SECRET, maxBodyBytes: -1 }),
    ).toThrow(expect.objectContaining({ code: 'invalid_options' }));
  });
});
