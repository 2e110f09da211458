import type { IncomingHttpHeaders } from 'node:http';
import express from 'express';
import { describe, expectTypeOf, it } from 'vitest';
import { cspwatchWebhook, getCspwatchEvent } from '../src/express';
import {
  type CspViolationNewTypeFinding,
  type CspwatchEvent,
  isCspViolationNewTypeEvent,
  verifyWebhook,
  type WebhookHeaders,
} from '../src/index';
import { verifyWebhookSync } from '../src/node';

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
