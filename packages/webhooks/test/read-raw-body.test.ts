import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readRawBody } from '../src/fetch';
import { verifyWebhook } from '../src/index';
import { verifyNextApiRequest } from '../src/next';
import { createSignedDelivery } from '../src/testing';

const SECRET = 'stream-secret-value';

const webStream = (chunks: unknown[], failAfter?: Error) =>
  new ReadableStream<unknown>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      if (failAfter === undefined) controller.close();
      else controller.error(failAfter);
    },
  });

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('readRawBody', () => {
  it('reads Web streams and Node Readables of bytes, text or mixed chunks into the exact bytes', async () => {
    const { body, headers } = await createSignedDelivery({ secret: SECRET });
    const half = body.length >> 1;
    const encoder = new TextEncoder();
    const sources = [
      webStream([encoder.encode(body)]),
      webStream([body.slice(0, half), encoder.encode(body.slice(half))]),
      webStream([
        new DataView(encoder.encode(body.slice(0, half)).buffer),
        encoder.encode(body.slice(half)).buffer,
      ]),
      Readable.from([Buffer.from(body.slice(0, half)), Buffer.from(body.slice(half))]),
      Readable.from([body.slice(0, half), body.slice(half)], { objectMode: false }),
    ];
    for (const source of sources) {
      const bytes = await readRawBody(source);
      expect(new TextDecoder().decode(bytes)).toBe(body);
      expect((await verifyWebhook({ body: bytes, headers, secret: SECRET })).eventType).toBe(
        'csp-violation:new-type',
      );
    }
  });

  it('honours maxBodyBytes counted in bytes when a stream yields strings (Web and Node)', async () => {
    // 10 strings of 10 × 'é' = 200 UTF-8 bytes but only 100 UTF-16 units.
    const chunks = Array.from({ length: 10 }, () => 'é'.repeat(10));
    for (const source of [webStream(chunks), Readable.from(chunks, { objectMode: false })]) {
      const error = await rejection(readRawBody(source, { maxBodyBytes: 150 }));
      expect(error).toMatchObject({ code: 'body_too_large' });
    }
    expect((await readRawBody(webStream(chunks), { maxBodyBytes: 200 })).byteLength).toBe(200);
  });

  it('joins a surrogate pair split across text chunks, and refuses a lone surrogate (Web and Node)', async () => {
    const text = '{"rule":"🚨 alert"}';
    const split = text.indexOf('🚨') + 1; // between the two halves of the pair
    const chunks = [text.slice(0, split), text.slice(split)];
    // Readable.from in object mode hands the strings over as they are (not re-encoded).
    for (const source of [webStream(chunks), Readable.from(chunks)]) {
      expect(new TextDecoder().decode(await readRawBody(source))).toBe(text);
    }
    for (const lone of [['{"a":"\uD800', '"}'], ['{"a":"\uDC00"}'], ['{"a":"x\uD83D']]) {
      for (const source of [webStream(lone), Readable.from(lone)]) {
        expect(await rejection(readRawBody(source))).toMatchObject({
          code: 'body_not_well_formed',
        });
      }
    }
  });

  it('turns a stream error mid-read into body_read_failed with the cause (Web and Node)', async () => {
    const cause = new Error('ECONNRESET');
    const web = await rejection(readRawBody(webStream(['{"a":'], cause)));
    expect(web).toMatchObject({ code: 'body_read_failed', cause });
    const node = new Readable({ read() {} });
    node.push('{"a":');
    setTimeout(() => node.destroy(cause), 5);
    expect(await rejection(readRawBody(node))).toMatchObject({ code: 'body_read_failed', cause });
    // The Pages Router helper reads the same way.
    const req = Object.assign(new Readable({ read() {} }), { headers: {} });
    setTimeout(() => req.destroy(cause), 5);
    expect(await rejection(verifyNextApiRequest(req, { secret: SECRET }))).toMatchObject({
      code: 'body_read_failed',
      cause,
    });
  });

  it('refuses an object-mode stream (not bytes or text) with body_not_raw, and a parsed body or any non-stream with body_not_raw too', async () => {
    expect(await rejection(readRawBody(webStream([{ parsed: true }])))).toMatchObject({
      code: 'body_not_raw',
    });
    expect(await rejection(readRawBody(Readable.from([{ parsed: true }])))).toMatchObject({
      code: 'body_not_raw',
    });
    for (const notAStream of [{}, { parsed: true }, 'text', null]) {
      expect(() => readRawBody(notAStream as never)).toThrow(
        expect.objectContaining({
          code: 'body_not_raw',
          message: expect.stringMatching(/not a parsed body/),
        }),
      );
    }
  });
});
