import { describe, expect, it } from 'vitest';
import { verifyRequest } from '../../src/fetch';
import {
  isWebhookVerificationError,
  signWebhook,
  verifyWebhook,
  verifyWebhookSignature,
} from '../../src/index';
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

  it('checks the signature alone, giving the same body back', async () => {
    const body = new TextEncoder().encode('not JSON, still signed');
    const headers = await signWebhook({ body, secret });
    expect(await verifyWebhookSignature({ body, headers, secret })).toBe(body);
  });

  it('stops reading a streamed body past maxBodyBytes', async () => {
    const { headers } = await createSignedDelivery({ secret });
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new Uint8Array(512)),
      cancel: () => {
        cancelled = true;
      },
    });
    const request = new Request('https://example.com/', {
      method: 'POST',
      headers,
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const POST = withCspwatchWebhook(async () => new Response(null, { status: 204 }), {
      secret,
      maxBodyBytes: 2048,
    });
    expect((await POST(request, {})).status).toBe(413);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cancelled).toBe(true);
  });
});
