import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWebhookVerificationError, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../src/index';
import { ALERT_BODY, codeOf, implementations, NOW, SECRET } from './implementations';

const secretArbitrary = fc
  .string({ unit: 'grapheme', minLength: 8, maxLength: 40 })
  .filter((s) => [...s].length >= 8);
const jsonBody = fc
  .record({
    eventType: fc.string(),
    findings: fc.array(fc.jsonValue(), { maxLength: 3 }),
    note: fc.string({ unit: 'binary' }),
  })
  .map((value) => JSON.stringify(value));
const timestampArbitrary = fc.integer({ min: NOW - 300_000, max: NOW + 300_000 });

describe.each(implementations)('properties — $name', ({ sign, verify }) => {
  const now = () => NOW;

  it('sign then verify round-trips for arbitrary bodies, secrets and timestamps', async () => {
    await fc.assert(
      fc.asyncProperty(
        jsonBody,
        secretArbitrary,
        timestampArbitrary,
        fc.boolean(),
        async (body, secret, timestamp, asBytes) => {
          const headers = await sign({ body, secret, timestamp });
          const raw = asBytes ? new TextEncoder().encode(body) : body;
          expect(await verify({ body: raw, headers, secret, now })).toEqual(JSON.parse(body));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('accepts a timestamp exactly when it is at most 300000 ms from now, either way (spec 5.4)', async () => {
    const near = fc.integer({ min: 299_000, max: 301_000 });
    const skew = fc.oneof(
      near,
      near.map((ms) => -ms),
      fc.integer({ min: -(NOW - 2e11), max: 1e12 }),
    );
    await fc.assert(
      fc.asyncProperty(skew, async (ms) => {
        const headers = await sign({ body: ALERT_BODY, secret: SECRET, timestamp: NOW - ms });
        const code = await codeOf(verify({ body: ALERT_BODY, headers, secret: SECRET, now }));
        const expected =
          Math.abs(ms) <= 300_000 ? 'ok' : ms > 0 ? 'timestamp_too_old' : 'timestamp_in_future';
        expect(code).toBe(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('rejects any single-byte change to the body', async () => {
    await fc.assert(
      fc.asyncProperty(
        jsonBody,
        secretArbitrary,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (body, secret, at, xor) => {
          const headers = await sign({ body, secret, timestamp: NOW });
          const bytes = new TextEncoder().encode(body);
          bytes[at % bytes.length]! ^= xor;
          const error = await verify({ body: bytes, headers, secret, now }).catch(
            (e: unknown) => e,
          );
          expect(isWebhookVerificationError(error) && error.code).toBe('signature_mismatch');
        },
      ),
      { numRuns: 60 },
    );
  });

  it('rejects any single-character change to the timestamp', async () => {
    await fc.assert(
      fc.asyncProperty(
        jsonBody,
        fc.nat(12),
        fc.integer({ min: 1, max: 9 }),
        async (body, at, delta) => {
          const secret = 'property-secret';
          const headers = await sign({ body, secret, timestamp: NOW });
          const digits = headers[TIMESTAMP_HEADER].split('');
          digits[at] = String((Number(digits[at]) + delta) % 10);
          const changed = { ...headers, [TIMESTAMP_HEADER]: digits.join('') };
          // Whatever the new value: too old, in the future, or a signature mismatch — never accepted.
          const error = await verify({
            body,
            headers: changed,
            secret,
            now: () => Number(digits.join('')),
          }).catch((e: unknown) => e);
          expect(isWebhookVerificationError(error) && error.code).toBe('signature_mismatch');
        },
      ),
      { numRuns: 40 },
    );
  });

  it('rejects any single-character change to the signature', async () => {
    await fc.assert(
      fc.asyncProperty(
        jsonBody,
        fc.integer({ min: 7, max: 70 }),
        fc.constantFrom(...'0123456789abcdef'),
        async (body, at, digit) => {
          const secret = 'property-secret';
          const headers = await sign({ body, secret, timestamp: NOW });
          const signature = headers[SIGNATURE_HEADER];
          fc.pre(signature[at] !== digit);
          const changed = {
            ...headers,
            [SIGNATURE_HEADER]: signature.slice(0, at) + digit + signature.slice(at + 1),
          };
          const error = await verify({ body, headers: changed, secret, now }).catch(
            (e: unknown) => e,
          );
          expect(isWebhookVerificationError(error) && error.code).toBe('signature_mismatch');
        },
      ),
      { numRuns: 60 },
    );
  });

  it('never throws anything but WebhookVerificationError for arbitrary header junk', async () => {
    const junkValue = fc.oneof(
      fc.anything(),
      fc.array(fc.anything(), { maxLength: 3 }),
      fc.string(),
    );
    const junkHeaders = fc.oneof(
      fc.anything(),
      fc.dictionary(
        fc.constantFrom(TIMESTAMP_HEADER, SIGNATURE_HEADER, 'X-CSPWATCH-SIGNATURE', 'other'),
        junkValue,
      ),
      fc.record({ [TIMESTAMP_HEADER]: fc.string(), [SIGNATURE_HEADER]: fc.string() }),
      fc.record({
        [TIMESTAMP_HEADER]: fc.stringMatching(/^[0-9]{1,20}$/),
        [SIGNATURE_HEADER]: fc.stringMatching(/^sha256=[0-9a-f]{60,66}$/),
      }),
    );
    await fc.assert(
      fc.asyncProperty(junkHeaders, fc.string(), async (headers, body) => {
        const error = await verify({
          body,
          headers: headers as never,
          secret: 'property-secret',
          now,
        }).then(
          () => new Error('accepted junk'),
          (e: unknown) => e,
        );
        expect(isWebhookVerificationError(error)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
