import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TOLERANCE_MS,
  isWebhookVerificationError,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
} from '../src/index';
import { ALERT_BODY, codeOf, implementations, NOW, SECRET } from './implementations';

describe.each(implementations)('verifyWebhook — $name', ({ sign, verify }) => {
  const signAt = (timestamp: number, body: string | Uint8Array = ALERT_BODY, secret = SECRET) =>
    sign({ body, secret, timestamp });
  const now = () => NOW;

  it('returns the parsed alert for a genuine delivery', async () => {
    const headers = await signAt(NOW);
    const event = await verify({ body: ALERT_BODY, headers, secret: SECRET, now });
    expect(event).toEqual(JSON.parse(ALERT_BODY));
    expect(headers['content-type']).toBe('application/json');
    expect(headers[TIMESTAMP_HEADER]).toBe(String(NOW));
    expect(headers[SIGNATURE_HEADER]).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it.each([
    ['past', -1],
    ['future', 1],
  ])('accepts a timestamp exactly %s 300000 ms away and rejects 300001', async (_, sign_) => {
    for (const [offset, expected] of [
      [DEFAULT_TOLERANCE_MS, 'ok'],
      [DEFAULT_TOLERANCE_MS + 1, sign_ < 0 ? 'timestamp_too_old' : 'timestamp_in_future'],
    ] as const) {
      const timestamp = NOW + sign_ * offset;
      const headers = await signAt(timestamp);
      expect(await codeOf(verify({ body: ALERT_BODY, headers, secret: SECRET, now }))).toBe(
        expected,
      );
    }
  });

  it('honours a custom tolerance', async () => {
    const headers = await signAt(NOW - 1001);
    const options = { body: ALERT_BODY, headers, secret: SECRET, now };
    expect(await codeOf(verify({ ...options, toleranceMs: 1000 }))).toBe('timestamp_too_old');
    expect(await codeOf(verify({ ...options, toleranceMs: 1001 }))).toBe('ok');
  });

  it('defaults the clock to Date.now()', async () => {
    const headers = await sign({ body: ALERT_BODY, secret: SECRET });
    expect(Math.abs(Number(headers[TIMESTAMP_HEADER]) - Date.now())).toBeLessThan(5000);
    await expect(verify({ body: ALERT_BODY, headers, secret: SECRET })).resolves.toBeTruthy();
  });

  it('gives the same result for a Buffer, a Uint8Array and a string of the same bytes', async () => {
    const headers = await signAt(NOW);
    const bytes = new TextEncoder().encode(ALERT_BODY);
    const fromString = await verify({ body: ALERT_BODY, headers, secret: SECRET, now });
    expect(await verify({ body: Buffer.from(ALERT_BODY), headers, secret: SECRET, now })).toEqual(
      fromString,
    );
    expect(await verify({ body: bytes, headers, secret: SECRET, now })).toEqual(fromString);
    expect(await signAt(NOW, bytes)).toEqual(headers);
  });

  it('verifies multibyte UTF-8 bodies (2, 3 and 4 byte sequences)', async () => {
    const body = JSON.stringify({
      eventType: 'csp-violation:new-type',
      rule: 'é ☃ 日本 🚨',
      findings: [],
    });
    const headers = await signAt(NOW, body);
    expect((await verify({ body, headers, secret: SECRET, now })).rule).toBe('é ☃ 日本 🚨');
    const bytes = Buffer.from(body, 'utf8');
    expect((await verify({ body: bytes, headers, secret: SECRET, now })).rule).toBe('é ☃ 日本 🚨');
    // The same text in another normalisation form is other bytes: rejected.
    const decomposed = body.normalize('NFD');
    expect(decomposed).not.toBe(body);
    expect(await codeOf(verify({ body: decomposed, headers, secret: SECRET, now }))).toBe(
      'signature_mismatch',
    );
  });

  it('rejects a re-serialised JSON body', async () => {
    const body = JSON.stringify(JSON.parse(ALERT_BODY), null, 2);
    const headers = await signAt(NOW);
    expect(await codeOf(verify({ body, headers, secret: SECRET, now }))).toBe('signature_mismatch');
  });

  it('refuses an already-parsed body and says the raw bytes are needed', async () => {
    const headers = await signAt(NOW);
    const error = await verify({
      body: JSON.parse(ALERT_BODY) as never,
      headers,
      secret: SECRET,
      now,
    }).catch((caught: unknown) => caught);
    expect(isWebhookVerificationError(error) && error.code).toBe('body_not_raw');
    // The core stays small: each adapter's own message says how to keep the raw body.
    const message = (error as Error).message;
    expect(message).toContain('not a parsed object');
    expect(message).toContain('exact bytes');
  });

  it.each([null, undefined, 42, [1, 2]])('refuses a body of %s as body_not_raw', async (body) => {
    const headers = await signAt(NOW);
    expect(await codeOf(verify({ body: body as never, headers, secret: SECRET, now }))).toBe(
      'body_not_raw',
    );
  });

  it('names a wrong body by its kind, never by its value', async () => {
    const headers = await signAt(NOW);
    const body = () => 'do-not-echo-this';
    const error = await verify({ body: body as never, headers, secret: SECRET, now }).catch(
      (caught: unknown) => caught,
    );
    expect(isWebhookVerificationError(error) && error.code).toBe('body_not_raw');
    expect((error as Error).message).not.toContain('do-not-echo-this');
  });

  it('treats a leading UTF-8 BOM alike in bytes and in a string', async () => {
    const body = `\uFEFF${ALERT_BODY}`;
    const headers = await signAt(NOW, body);
    const bytes = new TextEncoder().encode(body);
    expect(bytes.subarray(0, 3)).toEqual(Uint8Array.of(0xef, 0xbb, 0xbf));
    expect(await codeOf(verify({ body, headers, secret: SECRET, now }))).toBe('invalid_json');
    expect(await codeOf(verify({ body: bytes, headers, secret: SECRET, now }))).toBe(
      'invalid_json',
    );
  });

  it('rejects a wrong secret with signature_mismatch', async () => {
    const headers = await signAt(NOW);
    expect(await codeOf(verify({ body: ALERT_BODY, headers, secret: 'another-secret', now }))).toBe(
      'signature_mismatch',
    );
  });

  it('accepts any of several secrets during rotation, and rejects when none match', async () => {
    const headers = await signAt(NOW, ALERT_BODY, 'new-secret-value');
    const base = { body: ALERT_BODY, headers, now };
    expect(
      await codeOf(verify({ ...base, secret: ['old-secret-value', 'new-secret-value'] })),
    ).toBe('ok');
    expect(
      await codeOf(verify({ ...base, secret: ['new-secret-value', 'old-secret-value'] })),
    ).toBe('ok');
    expect(
      await codeOf(verify({ ...base, secret: ['old-secret-value', 'older-secret-value'] })),
    ).toBe('signature_mismatch');
  });

  it('refuses secrets shorter than 8 code points when verifying and when signing', async () => {
    const headers = await signAt(NOW);
    const base = { body: ALERT_BODY, headers, now };
    for (const secret of [
      '',
      'short',
      '1234567',
      '🔑🔑🔑🔑🔑🔑🔑',
      'é'.normalize('NFD').repeat(3),
    ]) {
      expect(await codeOf(verify({ ...base, secret }))).toBe('invalid_secret');
      expect(await codeOf(sign({ body: ALERT_BODY, secret }))).toBe('invalid_secret');
    }
    expect(await codeOf(verify({ ...base, secret: [SECRET, 'short'] }))).toBe('invalid_secret');
    expect(await codeOf(verify({ ...base, secret: [] }))).toBe('invalid_secret');
    expect(await codeOf(verify({ ...base, secret: 12345678 as never }))).toBe('invalid_secret');
    // Eight astral code points are 16 UTF-16 units; seven are 14: counted as code points.
    expect(await codeOf(sign({ body: ALERT_BODY, secret: '🔑'.repeat(8) }))).toBe('ok');
    expect(await codeOf(sign({ body: ALERT_BODY, secret: '12345678' }))).toBe('ok');
  });

  it('never puts the secret in an error message', async () => {
    const secret = 'top-secret-value-42';
    const headers = await signAt(NOW, ALERT_BODY, secret);
    const attempts = [
      () => verify({ body: `${ALERT_BODY} `, headers, secret, now }),
      () => verify({ body: ALERT_BODY, headers, secret: [secret, 'tiny'], now }),
      // Someone sending the secret itself as a header value must not get it logged.
      () =>
        verify({
          body: ALERT_BODY,
          headers: { ...headers, [SIGNATURE_HEADER]: secret },
          secret,
          now,
        }),
      () =>
        verify({
          body: ALERT_BODY,
          headers: { ...headers, [TIMESTAMP_HEADER]: secret },
          secret,
          now,
        }),
      () => verify({ body: {} as never, headers, secret, now }),
    ];
    for (const attempt of attempts) {
      const error = await attempt().catch((caught: unknown) => caught);
      expect(isWebhookVerificationError(error)).toBe(true);
      expect(String((error as Error).message)).not.toContain(secret);
      expect(String((error as Error).stack)).not.toContain(secret);
    }
  });

  it.each([
    ['timestamp', TIMESTAMP_HEADER],
    ['signature', SIGNATURE_HEADER],
  ])('rejects a missing or empty %s header with missing_header', async (_, name) => {
    const headers: Record<string, string | string[]> = { ...(await signAt(NOW)) };
    delete headers[name];
    expect(await codeOf(verify({ body: ALERT_BODY, headers, secret: SECRET, now }))).toBe(
      'missing_header',
    );
    for (const empty of ['', [] as string[]]) {
      headers[name] = empty;
      expect(await codeOf(verify({ body: ALERT_BODY, headers, secret: SECRET, now }))).toBe(
        'missing_header',
      );
    }
  });

  it.each([
    '-1700000000000',
    '+1700000000000',
    ' 1700000000000',
    '1700000000000 ',
    '1700000000000.0',
    '1.7e12',
    '0x18BCFE56800',
    '１７００００００００００００', // full-width digits are not ASCII
    'abc',
    '99999999999999999999',
  ])('rejects the timestamp %j as malformed_timestamp', async (value) => {
    const headers = { ...(await signAt(NOW)), [TIMESTAMP_HEADER]: value };
    expect(await codeOf(verify({ body: ALERT_BODY, headers, secret: SECRET, now }))).toBe(
      'malformed_timestamp',
    );
  });

  it('checks the signature over the timestamp exactly as written (leading zeros)', async () => {
    const headers = await signAt(NOW);
    const padded = { ...headers, [TIMESTAMP_HEADER]: `0${NOW}` };
    expect(await codeOf(verify({ body: ALERT_BODY, headers: padded, secret: SECRET, now }))).toBe(
      'signature_mismatch',
    );
  });

  it('rejects malformed signature headers', async () => {
    const headers = await signAt(NOW);
    const good = headers[SIGNATURE_HEADER];
    const hex = good.slice('sha256='.length);
    for (const value of [
      hex,
      `sha256=${hex.toUpperCase()}`,
      `SHA256=${hex}`,
      `sha1=${hex}`,
      `sha256=${hex.slice(1)}`,
      `sha256=${hex}0`,
      `sha256=${hex.slice(1)}g`,
      `sha256= ${hex.slice(1)}`,
      `${good}, ${good}`,
      `v1,${hex}`,
    ]) {
      const tampered = { ...headers, [SIGNATURE_HEADER]: value };
      expect(
        await codeOf(verify({ body: ALERT_BODY, headers: tampered, secret: SECRET, now })),
      ).toBe('malformed_signature');
    }
  });

  it('reads headers from a Fetch Headers object', async () => {
    const headers = new Headers(await signAt(NOW));
    expect(await codeOf(verify({ body: ALERT_BODY, headers, secret: SECRET, now }))).toBe('ok');
  });

  it('reads IncomingHttpHeaders-style string[] values with one element', async () => {
    const signed = await signAt(NOW);
    const headers = {
      [TIMESTAMP_HEADER]: [signed[TIMESTAMP_HEADER]],
      [SIGNATURE_HEADER]: [signed[SIGNATURE_HEADER]],
    };
    expect(await codeOf(verify({ body: ALERT_BODY, headers, secret: SECRET, now }))).toBe('ok');
  });

  it('treats a header sent twice as malformed rather than picking one', async () => {
    const signed = await signAt(NOW);
    const twice = [signed[SIGNATURE_HEADER], signed[SIGNATURE_HEADER]];
    const headers = { ...signed, [SIGNATURE_HEADER]: twice };
    expect(await codeOf(verify({ body: ALERT_BODY, headers, secret: SECRET, now }))).toBe(
      'malformed_signature',
    );
  });

  it('matches header names case-insensitively in plain objects', async () => {
    const signed = await signAt(NOW);
    const headers = {
      'X-CSPWatch-Timestamp': signed[TIMESTAMP_HEADER],
      'X-Cspwatch-SIGNATURE': signed[SIGNATURE_HEADER],
    };
    expect(await codeOf(verify({ body: ALERT_BODY, headers, secret: SECRET, now }))).toBe('ok');
  });

  it('uses overridden header names, case-insensitively', async () => {
    const signed = await signAt(NOW);
    const headers = {
      'x-acme-timestamp': signed[TIMESTAMP_HEADER],
      'X-Acme-Signature': signed[SIGNATURE_HEADER],
    };
    const headerNames = { timestamp: 'X-ACME-Timestamp', signature: 'x-acme-signature' };
    expect(
      await codeOf(verify({ body: ALERT_BODY, headers, secret: SECRET, now, headerNames })),
    ).toBe('ok');
    expect(await codeOf(verify({ body: ALERT_BODY, headers, secret: SECRET, now }))).toBe(
      'missing_header',
    );
    expect(
      await codeOf(
        verify({
          body: ALERT_BODY,
          headers: new Headers(headers),
          secret: SECRET,
          now,
          headerNames,
        }),
      ),
    ).toBe('ok');
  });

  it('returns an unknown eventType as a generic event instead of rejecting it', async () => {
    const body = JSON.stringify({ eventType: 'quota:exceeded', findings: [{ anything: true }] });
    const headers = await signAt(NOW, body);
    const event = await verify({ body, headers, secret: SECRET, now });
    expect(event.eventType).toBe('quota:exceeded');
    expect(event.findings).toEqual([{ anything: true }]);
  });

  it.each([
    ['not JSON', 'not json'],
    ['a JSON array', '[1,2]'],
    ['JSON null', 'null'],
    ['an object without eventType', '{"findings":[]}'],
    ['an eventType that is not a string', '{"eventType":42}'],
  ])('rejects a correctly signed body that is %s with invalid_json', async (_, body) => {
    const headers = await signAt(NOW, body);
    expect(await codeOf(verify({ body, headers, secret: SECRET, now }))).toBe('invalid_json');
  });

  it('rejects correctly signed bytes that are not UTF-8 with invalid_json', async () => {
    const body = Uint8Array.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    const headers = await signAt(NOW, body);
    expect(await codeOf(verify({ body, headers, secret: SECRET, now }))).toBe('invalid_json');
  });

  it('keeps a signed __proto__ key as a plain own property: no prototype is changed', async () => {
    const body = '{"eventType":"x","id":"p","__proto__":{"polluted":true,"eventType":"y"}}';
    const headers = await signAt(NOW, body);
    const event = await verify({ body, headers, secret: SECRET, now });
    expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
    expect(Object.hasOwn(event, '__proto__')).toBe(true);
    expect(event.eventType).toBe('x');
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('rejects a NaN clock instead of accepting every timestamp', async () => {
    const headers = await signAt(NOW);
    expect(
      await codeOf(verify({ body: ALERT_BODY, headers, secret: SECRET, now: () => Number.NaN })),
    ).toBe('timestamp_too_old');
  });

  it('gives invalid_options for a negative, infinite or non-numeric tolerance', async () => {
    const headers = await signAt(NOW);
    // Infinity would switch the freshness check off; a string or true is not a number of ms.
    const notNumbers = ['300000', true] as unknown as number[];
    for (const toleranceMs of [-1, Number.NaN, Number.NEGATIVE_INFINITY, Infinity, ...notNumbers]) {
      const error = await verify({
        body: ALERT_BODY,
        headers,
        secret: SECRET,
        now,
        toleranceMs,
      }).catch((caught: unknown) => caught);
      expect(isWebhookVerificationError(error) && error.code).toBe('invalid_options');
      expect((error as Error).message).toContain('toleranceMs');
    }
  });

  it('refuses to sign with a negative, fractional or unsafe timestamp', async () => {
    for (const timestamp of [-1, 1.5, Number.NaN, 2 ** 53]) {
      expect(await codeOf(sign({ body: ALERT_BODY, secret: SECRET, timestamp }))).toBe(
        'malformed_timestamp',
      );
    }
  });
});
