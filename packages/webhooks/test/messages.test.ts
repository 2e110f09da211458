import { describe, expect, it } from 'vitest';
import * as webEntry from '../src/index';
import { isWebhookVerificationError, SIGNATURE_HEADER } from '../src/index';
import * as nodeEntry from '../src/node';
import { ALERT_BODY, implementations, NOW, SECRET } from './implementations';

const now = () => NOW;
const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isWebhookVerificationError(error))
    throw new Error(`expected a WebhookVerificationError, got ${String(error)}`);
  return error;
};

describe.each(implementations)('messages for common mistakes — $name', ({ sign, verify }) => {
  it('hints that a timestamp in seconds should be milliseconds', async () => {
    const seconds = Math.floor(NOW / 1000);
    const headers = await sign({ body: ALERT_BODY, secret: SECRET, timestamp: NOW });
    const error = await failure(
      verify({
        body: ALERT_BODY,
        headers: { ...headers, 'x-cspwatch-timestamp': String(seconds) },
        secret: SECRET,
        now,
      }),
    );
    expect(error.code).toBe('timestamp_too_old');
    expect(error.message).toMatch(/seconds\? Send ms/);
    // An ordinary old timestamp gets no such hint.
    const old = await sign({ body: ALERT_BODY, secret: SECRET, timestamp: NOW - 600_000 });
    const plain = await failure(verify({ body: ALERT_BODY, headers: old, secret: SECRET, now }));
    expect(plain.message).not.toMatch(/seconds/);
  });

  it('refuses to sign with a timestamp that is plainly in seconds', async () => {
    const error = await failure(
      sign({ body: ALERT_BODY, secret: SECRET, timestamp: Math.floor(NOW / 1000) }),
    );
    expect(error.code).toBe('malformed_timestamp');
    expect(error.message).toContain('not seconds');
  });

  it('says "uppercase" for an uppercase-hex signature', async () => {
    const headers = await sign({ body: ALERT_BODY, secret: SECRET, timestamp: NOW });
    const upper = `sha256=${headers[SIGNATURE_HEADER].slice(7).toUpperCase()}`;
    const error = await failure(
      verify({
        body: ALERT_BODY,
        headers: { ...headers, [SIGNATURE_HEADER]: upper },
        secret: SECRET,
        now,
      }),
    );
    expect(error.code).toBe('malformed_signature');
    expect(error.message).toContain('uppercase');
  });

  it('gives invalid_options, not a TypeError, when called with no or wrong arguments', async () => {
    for (const options of [undefined, null, 'body', 42]) {
      const error = await failure(verify(options as never));
      expect(error.code).toBe('invalid_options');
      expect(error.message).toContain('{ body, headers, secret }');
    }
  });

  it('says the secret is missing when it is undefined (an unset environment variable)', async () => {
    const headers = await sign({ body: ALERT_BODY, secret: SECRET, timestamp: NOW });
    const error = await failure(
      verify({ body: ALERT_BODY, headers, secret: undefined as never, now }),
    );
    expect(error.code).toBe('invalid_secret');
    expect(error.message).toContain('missing');
    expect(error.message).toContain('environment variable');
  });
});

describe('safeVerifyWebhook', () => {
  const forms = [
    ['web', webEntry.safeVerifyWebhook],
    ['node', nodeEntry.safeVerifyWebhook],
    [
      'node sync',
      async (options: webEntry.VerifyWebhookOptions) => nodeEntry.safeVerifyWebhookSync(options),
    ],
  ] as const;

  it.each(forms)(
    '%s: { ok: true, event } for a genuine delivery, { ok: false, code } otherwise',
    async (_, safe) => {
      const headers = await webEntry.signWebhook({
        body: ALERT_BODY,
        secret: SECRET,
        timestamp: NOW,
      });
      const good = await safe({ body: ALERT_BODY, headers, secret: SECRET, now });
      expect(good).toEqual({ ok: true, event: JSON.parse(ALERT_BODY) });
      const bad = await safe({ body: `${ALERT_BODY} `, headers, secret: SECRET, now });
      expect(bad.ok).toBe(false);
      if (bad.ok) return;
      expect(bad.code).toBe('signature_mismatch');
      expect(bad.message).toBe(bad.error.message);
      // No options at all is the receiver's own mistake, not a refused delivery: it throws.
      await expect(async () => safe(undefined as never)).rejects.toMatchObject({
        code: 'invalid_options',
      });
    },
  );

  it('still throws what is not a verification failure (a bug in the caller)', async () => {
    const headers = await webEntry.signWebhook({
      body: ALERT_BODY,
      secret: SECRET,
      timestamp: NOW,
    });
    const boom = new Error('clock broke');
    const now = () => {
      throw boom;
    };
    await expect(
      webEntry.safeVerifyWebhook({ body: ALERT_BODY, headers, secret: SECRET, now }),
    ).rejects.toBe(boom);
    expect(() =>
      nodeEntry.safeVerifyWebhookSync({ body: ALERT_BODY, headers, secret: SECRET, now }),
    ).toThrow(boom);
  });
});
