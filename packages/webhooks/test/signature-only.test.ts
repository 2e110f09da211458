import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  type VerifyWebhookOptions,
  type WebhookVerificationErrorCode,
} from '../src/index';
import { ALERT_BODY, codeOf, implementations, NOW, SECRET } from './implementations';

const now = () => NOW;

describe.each(implementations)('verifyWebhookSignature — $name', (impl) => {
  it('resolves to the very body it was given (string, Buffer, Uint8Array), not a copy', async () => {
    const headers = await impl.sign({ body: ALERT_BODY, secret: SECRET, timestamp: NOW });
    for (const body of [
      ALERT_BODY,
      Buffer.from(ALERT_BODY),
      new TextEncoder().encode(ALERT_BODY),
    ]) {
      expect(await impl.verifySignature({ body, headers, secret: SECRET, now })).toBe(body);
    }
  });

  it('does not decode or parse: a signed non-JSON, non-UTF-8 body passes the signature check', async () => {
    for (const body of ['not json at all', new Uint8Array([0xff, 0xfe, 0x00, 0xc3])]) {
      const headers = await impl.sign({ body, secret: SECRET, timestamp: NOW });
      const options = { body, headers, secret: SECRET, now };
      expect(await impl.verifySignature(options)).toBe(body);
      expect(await codeOf(impl.verify(options))).toBe('invalid_json');
    }
  });

  it('accepts any secret during rotation', async () => {
    const headers = await impl.sign({ body: ALERT_BODY, secret: SECRET, timestamp: NOW });
    const secret = ['another-secret-1', SECRET];
    expect(await impl.verifySignature({ body: ALERT_BODY, headers, secret, now })).toBe(ALERT_BODY);
  });

  it('fails with the same code as verifyWebhook for every header, timestamp, signature and secret failure', async () => {
    const good = await impl.sign({ body: ALERT_BODY, secret: SECRET, timestamp: NOW });
    const cases: [string, Partial<VerifyWebhookOptions>, WebhookVerificationErrorCode][] = [
      [
        'no timestamp',
        { headers: { [SIGNATURE_HEADER]: good[SIGNATURE_HEADER] } },
        'missing_header',
      ],
      [
        'no signature',
        { headers: { [TIMESTAMP_HEADER]: good[TIMESTAMP_HEADER] } },
        'missing_header',
      ],
      [
        'bad timestamp',
        { headers: { ...good, [TIMESTAMP_HEADER]: '1e12' } },
        'malformed_timestamp',
      ],
      [
        'bad signature',
        { headers: { ...good, [SIGNATURE_HEADER]: 'sha256=AB' } },
        'malformed_signature',
      ],
      ['too old', { now: () => NOW + 300_001 }, 'timestamp_too_old'],
      ['in future', { now: () => NOW - 300_001 }, 'timestamp_in_future'],
      ['changed body', { body: `${ALERT_BODY} ` }, 'signature_mismatch'],
      ['wrong secret', { secret: 'wrong-secret-value' }, 'signature_mismatch'],
      ['short secret', { secret: 'short' }, 'invalid_secret'],
      ['parsed body', { body: JSON.parse(ALERT_BODY) }, 'body_not_raw'],
    ];
    for (const [label, override, code] of cases) {
      const options = { body: ALERT_BODY, headers: good, secret: SECRET, now, ...override };
      expect([label, await codeOf(impl.verifySignature(options))]).toEqual([label, code]);
      expect([label, await codeOf(impl.verify(options))]).toEqual([label, code]);
    }
  });

  it('agrees with verifyWebhook on arbitrary header junk', async () => {
    const junk = fc.oneof(
      fc.string(),
      fc.constant(`sha256=${'a'.repeat(64)}`),
      fc.constant(String(NOW)),
    );
    await fc.assert(
      fc.asyncProperty(junk, junk, async (timestamp, signature) => {
        const options = {
          body: ALERT_BODY,
          headers: { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: signature },
          secret: SECRET,
          now,
        };
        const expected = await codeOf(impl.verify(options));
        expect(expected).not.toBe('ok');
        expect(await codeOf(impl.verifySignature(options))).toBe(expected);
      }),
      { numRuns: 100 },
    );
  });
});
