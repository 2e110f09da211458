import { describe, expect, it } from 'vitest';
import { verifyRequest } from '../../src/fetch';
import { isWebhookVerificationError, signWebhook, verifyWebhook } from '../../src/index';
import { withCspwatchWebhook } from '../../src/next';
import { createSignedDelivery } from '../../src/testing';

/**
 * Runs in the `webhooks-edge` project: Edge runtime globals, and any Node built-in imported
 * by the package source fails the import (see vitest.edge.config.ts).
 */
describe('Web entry on the Edge runtime', () => {
  const secret = 'edge-runtime-secret';

  it('signs and verifies with Web Crypto', async () => {
    const body = JSON.stringify({
      eventType: 'csp-violation:new-type',
      findings: [],
      rule: 'é☃🚨',
    });
    const headers = await signWebhook({ body, secret, timestamp: 1_700_000_000_000 });
    const now = () => 1_700_000_000_000;
    expect(await verifyWebhook({ body, headers, secret, now })).toEqual(JSON.parse(body));
    const error = await verifyWebhook({ body: `${body} `, headers, secret, now }).catch(
      (e: unknown) => e,
    );
    expect(isWebhookVerificationError(error) && error.code).toBe('signature_mismatch');
  });

  it('verifies a Request through the fetch and Next.js App Router adapters', async () => {
    const { body, headers } = await createSignedDelivery({ secret });
    const event = await verifyRequest(
      new Request('https://example.com/', { method: 'POST', headers, body }),
      { secret },
    );
    expect(event.eventType).toBe('csp-violation:new-type');
    const POST = withCspwatchWebhook(async (verified) => Response.json({ id: verified.id }), {
      secret,
    });
    const forged = new Request('https://example.com/', {
      method: 'POST',
      headers,
      body: body.replace('"', ' "'),
    });
    expect((await POST(forged, {})).status).toBe(400);
  });
});
