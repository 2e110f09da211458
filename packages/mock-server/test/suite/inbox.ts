import { createProblemResponse, verifyRequest } from '@cspwatch/webhooks/fetch';
import { describe, expect, it } from 'vitest';
import { signedPost } from '../signed-post';
import type { SuiteContext } from './context';

/** What the `@cspwatch/webhooks` Fetch adapter answers to a delivery it refuses. */
async function adapterAnswer(init: RequestInit, secret: string): Promise<Response> {
  const request = new Request('http://receiver.test/hook', init);
  try {
    await verifyRequest(request, { secret });
  } catch (error) {
    return createProblemResponse(error as Parameters<typeof createProblemResponse>[0]);
  }
  throw new Error('the adapter accepted the delivery');
}

/** The webhook inbox: verification, replays, recording, configured answers, hanging. */
export function inboxTests(s: SuiteContext): void {
  const { expectProblem } = s;
  describe('webhook inbox', () => {
    const secret = 'whsec-test-1234';

    it('verifies and records a signed delivery, answering 200', async () => {
      const channel = s.harness.service.inbox.createChannel({ secret });
      expect(channel.url).toBe(`${s.harness.baseUrl}/inbox/${channel.id}`);
      const sent = await signedPost({ secret });
      const { body } = sent;
      const response = await fetch(channel.url, sent);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
      const [delivery, ...rest] = s.harness.service.inbox.deliveries(channel.id);
      expect(rest).toEqual([]);
      expect(delivery).toMatchObject({
        verified: true,
        rawBody: body,
        status: 200,
        event: JSON.parse(body),
      });
      expect(delivery?.headers['x-cspwatch-signature']).toBe(
        new Headers(sent.headers).get('x-cspwatch-signature'),
      );
      expect(delivery?.errorCode).toBeUndefined();
      const listed = await (await fetch(`${channel.url}/deliveries`)).json();
      expect(listed).toEqual({ data: [JSON.parse(JSON.stringify(delivery))] });
    });

    it('records a delivery that fails verification and refuses it as the adapters do: 400, the failed check as code', async () => {
      const channel = s.harness.service.inbox.createChannel({ secret, response: { status: 500 } });
      const wrong = await signedPost({ secret: 'another-secret-99' });
      const refused = await expectProblem(
        await fetch(channel.url, wrong),
        400,
        'signature_mismatch',
      );
      // The same body, status and headers as the Fetch adapter gives for the same request.
      const adapter = await adapterAnswer(wrong, secret);
      expect(refused).toEqual(await adapter.json());
      expect(adapter.status).toBe(400);
      const old = await signedPost({ secret, timestamp: Date.now() - 301_000 });
      await expectProblem(await fetch(channel.url, old), 400, 'timestamp_too_old');
      await expectProblem(
        await fetch(channel.url, {
          method: 'POST',
          body: old.body,
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'missing_header',
      );
      const fresh = await signedPost({ secret });
      await fetch(channel.url, { ...fresh, body: fresh.body.replace('{', '{ ') });
      const deliveries = s.harness.service.inbox.deliveries(channel.id);
      expect(deliveries.map((d) => [d.verified, d.errorCode, d.status])).toEqual([
        [false, 'signature_mismatch', 400],
        [false, 'timestamp_too_old', 400],
        [false, 'missing_header', 400],
        [false, 'signature_mismatch', 400],
      ]);
      expect(deliveries.every((d) => d.event === undefined)).toBe(true);
    });

    it('refuses a signed request received before with 409 replayed_delivery, unless the channel answered it 5xx', async () => {
      const channel = s.harness.service.inbox.createChannel({ secret, response: { status: 202 } });
      const sent = await signedPost({ secret });
      expect((await fetch(channel.url, sent)).status).toBe(202);
      await expectProblem(await fetch(channel.url, sent), 409, 'replayed_delivery');
      // A re-signed retry of the same alert is a new request: accepted.
      expect((await fetch(channel.url, await signedPost({ secret }))).status).toBe(202);
      s.harness.service.inbox.setResponse(channel.id, { status: 503 });
      const failed = await signedPost({ secret });
      expect((await fetch(channel.url, failed)).status).toBe(503);
      s.harness.service.inbox.setResponse(channel.id, { status: 200 });
      expect((await fetch(channel.url, failed)).status).toBe(200);
      expect(
        s.harness.service.inbox
          .deliveries(channel.id)
          .map((d) => [d.verified, d.errorCode, d.status]),
      ).toEqual([
        [true, undefined, 202],
        [false, 'replayed_delivery', 409],
        [true, undefined, 202],
        [true, undefined, 503],
        [true, undefined, 200],
      ]);
    });

    it('answers the configured status: 500, 302 with Location, 204', async () => {
      const channel = s.harness.service.inbox.createChannel({ secret, response: { status: 500 } });
      const send = async () =>
        fetch(channel.url, {
          redirect: 'manual',
          ...(await signedPost({ secret })),
        });
      expect((await send()).status).toBe(500);
      s.harness.service.inbox.setResponse(channel.id, {
        status: 302,
        location: 'https://elsewhere.example/hook',
      });
      const redirected = await send();
      expect(redirected.status).toBe(302);
      expect(redirected.headers.get('location')).toBe('https://elsewhere.example/hook');
      s.harness.service.inbox.setResponse(channel.id, { status: 204 });
      expect((await send()).status).toBe(204);
      expect(s.harness.service.inbox.deliveries(channel.id).map((d) => d.status)).toEqual([
        500, 302, 204,
      ]);
    });

    it('hangs until reset releases the request as a dropped connection', async () => {
      const channel = s.harness.service.inbox.createChannel({ secret, response: { hang: true } });
      const pending = fetch(channel.url, await signedPost({ secret }));
      const outcome = pending.then(
        () => 'answered',
        () => 'dropped',
      );
      await expect.poll(() => s.harness.service.inbox.deliveries(channel.id).length).toBe(1);
      expect(s.harness.service.inbox.deliveries(channel.id)[0]?.status).toBeNull();
      s.harness.service.reset();
      expect(await outcome).toBe('dropped');
    });

    it('answers 404 for an unknown channel and refuses bad channel options', async () => {
      await expectProblem(
        await fetch(`${s.harness.baseUrl}/inbox/ch_nope`, { method: 'POST', body: '{}' }),
        404,
        'channel_not_found',
      );
      await expectProblem(
        await fetch(`${s.harness.baseUrl}/inbox/ch_nope/deliveries`),
        404,
        'channel_not_found',
      );
      expect(() => s.harness.service.inbox.createChannel({ secret: 'short' })).toThrow(
        /at least 8/,
      );
      expect(() =>
        s.harness.service.inbox.createChannel({ secret, response: { status: 99 } }),
      ).toThrow(/response.status/);
      for (const location of [
        '/relative',
        'https://a.example/\r\nx-injected: 1',
        'https://a.example/ x',
      ]) {
        expect(() =>
          s.harness.service.inbox.createChannel({ secret, response: { status: 302, location } }),
        ).toThrow(/response.location/);
      }
      expect(() => s.harness.service.inbox.deliveries('ch_nope')).toThrow(
        expect.objectContaining({ code: 'unknown_channel' }),
      );
    });
  });
}
