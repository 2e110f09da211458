import type { IncomingHttpHeaders } from 'node:http';
import express from 'express';
import { describe, expectTypeOf, it } from 'vitest';
import { cspwatchWebhook, getCspwatchEvent } from '../src/express';
import {
  type CspViolationNewTypeFinding,
  type CspwatchEvent,
  isCspViolationNewTypeEvent,
  verifyWebhook,
  verifyWebhookSignature,
  type WebhookHeaders,
} from '../src/index';
import { verifyWebhookSignatureSync, verifyWebhookSync } from '../src/node';

describe('public types', () => {
  it('narrows a verified event to typed findings', () => {
    const event = {} as CspwatchEvent;
    if (isCspViolationNewTypeEvent(event)) {
      expectTypeOf(event.findings).toEqualTypeOf<CspViolationNewTypeFinding[]>();
      expectTypeOf(event.eventType).toEqualTypeOf<'csp-violation:new-type'>();
    } else {
      expectTypeOf(event.findings).toEqualTypeOf<unknown[]>();
    }
  });

  it('does not narrow on a plain eventType comparison (the reason for the guard)', () => {
    const event = {} as CspwatchEvent;
    if (event.eventType === 'csp-violation:new-type') {
      // UnknownCspwatchEvent.eventType is `string`, which also admits this literal.
      expectTypeOf(event.findings).not.toEqualTypeOf<CspViolationNewTypeFinding[]>();
    }
  });

  it('narrows in a switch (true) over the guard', () => {
    const event = {} as CspwatchEvent;
    switch (true) {
      case isCspViolationNewTypeEvent(event):
        expectTypeOf(event.findings).toEqualTypeOf<CspViolationNewTypeFinding[]>();
        break;
      default:
        expectTypeOf(event.findings).toEqualTypeOf<unknown[]>();
    }
  });

  it('gives back the body type passed to the signature-only check', () => {
    const secret = 'x'.repeat(8);
    const headers = new Headers();
    const text = '' as string;
    const buffer = {} as Buffer;
    const bytes = {} as Uint8Array;
    expectTypeOf(
      verifyWebhookSignature({ body: text, secret, headers }),
    ).resolves.toEqualTypeOf<string>();
    expectTypeOf(
      verifyWebhookSignatureSync({ body: buffer, secret, headers }),
    ).toEqualTypeOf<Buffer>();
    expectTypeOf(
      verifyWebhookSignatureSync({ body: bytes, secret, headers }),
    ).toEqualTypeOf<Uint8Array>();
    const either = text as string | Uint8Array;
    expectTypeOf(verifyWebhookSignatureSync({ body: either, secret, headers })).toEqualTypeOf<
      string | Uint8Array
    >();
  });

  it('accepts every header shape and signed headers as input', () => {
    const secret = 'x'.repeat(8);
    expectTypeOf(
      verifyWebhook({ body: '', secret, headers: new Headers() }),
    ).resolves.toEqualTypeOf<CspwatchEvent>();
    expectTypeOf(
      verifyWebhookSync({ body: Buffer.from(''), secret, headers: {} as IncomingHttpHeaders }),
    ).toEqualTypeOf<CspwatchEvent>();
    expectTypeOf(
      verifyWebhookSync({ body: '', secret: [secret], headers: {} as WebhookHeaders }),
    ).toEqualTypeOf<CspwatchEvent>();
  });

  it('plugs the middleware into Express without casts', () => {
    const app = express();
    app.post(
      '/hook',
      express.raw({ type: 'application/json' }),
      cspwatchWebhook({ secret: 'x'.repeat(8) }),
      (req, res) => {
        expectTypeOf(getCspwatchEvent(req)).toEqualTypeOf<CspwatchEvent>();
        res.sendStatus(204);
      },
    );
  });
});
