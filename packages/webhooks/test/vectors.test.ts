import { describe, expect, it } from 'vitest';
import { implementations } from './implementations';
import vectorsFile from './vectors.json';

/**
 * Known-answer vectors computed outside the package (Python's hmac, cross-checked with
 * `openssl dgst -sha256 -hmac`): see generate-vectors.sh, which wrote vectors.json.
 */
const { vectors } = vectorsFile;

describe.each(implementations)('known-answer vectors — $name', ({ sign, verify }) => {
  it.each(vectors)('signs "$name" exactly like openssl/python', async (vector) => {
    const headers = await sign({
      body: vector.body,
      secret: vector.secret,
      timestamp: Number(vector.timestamp),
    });
    if (vector.timestamp === String(Number(vector.timestamp))) {
      expect(headers['x-cspwatch-signature']).toBe(vector.signature);
    }
    const bytes = new TextEncoder().encode(vector.body);
    const now = () => Number(vector.timestamp);
    const delivery = {
      'x-cspwatch-timestamp': vector.timestamp,
      'x-cspwatch-signature': vector.signature,
    };
    const fromText = await verify({
      body: vector.body,
      headers: delivery,
      secret: vector.secret,
      now,
    });
    const fromBytes = await verify({ body: bytes, headers: delivery, secret: vector.secret, now });
    expect(fromText).toEqual(JSON.parse(vector.body));
    expect(fromBytes).toEqual(fromText);
  });
});
