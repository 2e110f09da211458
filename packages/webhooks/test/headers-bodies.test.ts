import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../src/index';
import { ALERT_BODY, codeOf, implementations, NOW, SECRET } from './implementations';

const now = () => NOW;
const GARBAGE_SIGNATURE = `sha256=${'0'.repeat(64)}`;

/** Every letter-case spelling of a header name is a distinct record key. */
const caseVariant = (name: string) =>
  fc
    .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((upper) => [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''))
    .filter((variant) => variant !== name);

describe.each(implementations)('duplicate headers and raw bodies — $name', ({ sign, verify }) => {
  const signed = () => sign({ body: ALERT_BODY, secret: SECRET, timestamp: NOW });

  it('rejects a signature header sent twice in two letter cases, whatever the key order', async () => {
    const headers = await signed();
    const valid = headers[SIGNATURE_HEADER];
    for (const record of [
      {
        [TIMESTAMP_HEADER]: String(NOW),
        [SIGNATURE_HEADER]: valid,
        'X-CSPWATCH-SIGNATURE': GARBAGE_SIGNATURE,
      },
      {
        'X-CSPWATCH-SIGNATURE': GARBAGE_SIGNATURE,
        [SIGNATURE_HEADER]: valid,
        [TIMESTAMP_HEADER]: String(NOW),
      },
      { [TIMESTAMP_HEADER]: String(NOW), [SIGNATURE_HEADER]: valid, 'X-Cspwatch-Signature': valid },
    ]) {
      expect(await codeOf(verify({ body: ALERT_BODY, headers: record, secret: SECRET, now }))).toBe(
        'malformed_signature',
      );
    }
  });

  it('rejects a duplicate holding a value whose toString throws as malformed, not with a TypeError', async () => {
    const valid = (await signed())[SIGNATURE_HEADER];
    const hostile = { toString: 0 };
    for (const record of [
      { [TIMESTAMP_HEADER]: String(NOW), [SIGNATURE_HEADER]: [valid, hostile] },
      {
        [TIMESTAMP_HEADER]: String(NOW),
        [SIGNATURE_HEADER]: valid,
        'X-CSPWATCH-SIGNATURE': hostile,
      },
    ]) {
      const headers = record as never;
      expect(await codeOf(verify({ body: ALERT_BODY, headers, secret: SECRET, now }))).toBe(
        'malformed_signature',
      );
    }
  });

  it('rejects a timestamp header sent twice (two cases, or an array of two) as malformed_timestamp', async () => {
    const headers = await signed();
    const sig = headers[SIGNATURE_HEADER];
    for (const record of [
      {
        [TIMESTAMP_HEADER]: String(NOW),
        'X-Cspwatch-Timestamp': String(NOW),
        [SIGNATURE_HEADER]: sig,
      },
      { [TIMESTAMP_HEADER]: [String(NOW), String(NOW)], [SIGNATURE_HEADER]: sig },
    ]) {
      expect(await codeOf(verify({ body: ALERT_BODY, headers: record, secret: SECRET, now }))).toBe(
        'malformed_timestamp',
      );
    }
  });

  it('rejects arrays with more than one element, even empty or non-string ones, as malformed', async () => {
    const headers = await signed();
    const sig = headers[SIGNATURE_HEADER];
    for (const extra of ['', 42, null, undefined, sig]) {
      const record = { [TIMESTAMP_HEADER]: String(NOW), [SIGNATURE_HEADER]: [sig, extra] as never };
      expect(await codeOf(verify({ body: ALERT_BODY, headers: record, secret: SECRET, now }))).toBe(
        'malformed_signature',
      );
    }
    const single = { [TIMESTAMP_HEADER]: [String(NOW)], [SIGNATURE_HEADER]: [sig] };
    expect(await codeOf(verify({ body: ALERT_BODY, headers: single, secret: SECRET, now }))).toBe(
      'ok',
    );
  });

  it('property: a second spelling of the signature header is malformed, never accepted', async () => {
    const headers = await signed();
    const sig = headers[SIGNATURE_HEADER];
    await fc.assert(
      fc.asyncProperty(caseVariant(SIGNATURE_HEADER), fc.boolean(), async (variant, validFirst) => {
        const record: Record<string, string> = { [TIMESTAMP_HEADER]: String(NOW) };
        if (validFirst) record[SIGNATURE_HEADER] = sig;
        record[variant] = validFirst ? GARBAGE_SIGNATURE : sig;
        if (!validFirst) record[SIGNATURE_HEADER] = GARBAGE_SIGNATURE;
        const code = await codeOf(
          verify({ body: ALERT_BODY, headers: record, secret: SECRET, now }),
        );
        expect(code).toBe('malformed_signature');
      }),
      { numRuns: 50 },
    );
  });

  it('still reads a lone header under any letter case', async () => {
    const headers = await signed();
    const record = {
      'X-CSPWATCH-TIMESTAMP': String(NOW),
      'X-Cspwatch-Signature': headers[SIGNATURE_HEADER],
    };
    expect(await codeOf(verify({ body: ALERT_BODY, headers: record, secret: SECRET, now }))).toBe(
      'ok',
    );
  });

  it('rejects a string body with a lone surrogate as body_not_well_formed (its U+FFFD twin verifies)', async () => {
    for (const [lone, replaced] of [
      ['\uD800', '\uFFFD'],
      ['\uDC00', '\uFFFD'],
    ] as const) {
      const good = ALERT_BODY.replace('Shop', `Sh${replaced}op`);
      const headers = await sign({ body: good, secret: SECRET, timestamp: NOW });
      expect(await codeOf(verify({ body: good, headers, secret: SECRET, now }))).toBe('ok');
      const bad = ALERT_BODY.replace('Shop', `Sh${lone}op`);
      expect(await codeOf(verify({ body: bad, headers, secret: SECRET, now }))).toBe(
        'body_not_well_formed',
      );
      expect(await codeOf(sign({ body: bad, secret: SECRET }))).toBe('body_not_well_formed');
    }
    // A well-formed pair is fine.
    const emoji = ALERT_BODY.replace('Shop', 'Shop 🚨');
    const headers = await sign({ body: emoji, secret: SECRET, timestamp: NOW });
    expect(await codeOf(verify({ body: emoji, headers, secret: SECRET, now }))).toBe('ok');
  });

  it('verifies ArrayBuffer, DataView and offset views of the exact bytes', async () => {
    const headers = await signed();
    const bytes = new TextEncoder().encode(ALERT_BODY);
    const padded = new Uint8Array(bytes.length + 7);
    padded.set(bytes, 3);
    const bodies = [
      bytes.buffer.slice(0),
      new DataView(padded.buffer, 3, bytes.length),
      padded.subarray(3, 3 + bytes.length),
      new Uint8Array(padded.buffer, 3, bytes.length),
    ];
    for (const body of bodies) {
      expect(await verify({ body, headers, secret: SECRET, now })).toEqual(JSON.parse(ALERT_BODY));
    }
    // One byte too many in the view's window is a different body.
    const wider = new DataView(padded.buffer, 3, bytes.length + 1);
    expect(await codeOf(verify({ body: wider, headers, secret: SECRET, now }))).toBe(
      'signature_mismatch',
    );
  });
});

/** Walks the code units: every high surrogate must be followed by a low one, and only then. */
function isWellFormedUtf16(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      index++;
    } else if (code >= 0xdc00 && code <= 0xdfff) return false;
  }
  return true;
}

describe('lone surrogates: every path agrees', () => {
  const codeUnits = fc.string({
    unit: fc.oneof(
      fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
      fc.constantFrom('a', 'é', '🚨', '"'),
    ),
    maxLength: 12,
  });

  it('property: a string body verifies on every path iff it is well-formed UTF-16', async () => {
    await fc.assert(
      fc.asyncProperty(codeUnits, async (text) => {
        const inner = text.replace(/"/g, ''); // may join two halves into a pair: check after
        const wellFormed = isWellFormedUtf16(inner);
        const body = JSON.stringify({ eventType: 'x' }).replace('}', `,"t":"${inner}"}`);
        const bytes = Buffer.from(body, 'utf8'); // lone halves become U+FFFD here
        const headers = await implementations[0]!.sign({
          body: bytes,
          secret: SECRET,
          timestamp: NOW,
        });
        const codes = await Promise.all(
          implementations.map(({ verify }) =>
            codeOf(verify({ body, headers, secret: SECRET, now })),
          ),
        );
        expect(new Set(codes).size).toBe(1);
        expect(codes[0]).toBe(wellFormed ? 'ok' : 'body_not_well_formed');
      }),
      { numRuns: 200 },
    );
  });
});
