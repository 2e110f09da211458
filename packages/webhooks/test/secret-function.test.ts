/**
 * `secret` as a function: called per request, its result checked like a plain secret, and a
 * throw, rejection or bad result always `invalid_secret` (a setup error), never a refusal.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isReceiverSetupError,
  isWebhookVerificationError,
  safeVerifyWebhook,
  type WebhookSecretFunction,
} from '../src/index';
import * as nodeEntry from '../src/node';
import { ALERT_BODY, codeOf, implementations, NOW, SECRET } from './implementations';

const now = () => NOW;
const secretArbitrary = fc
  .string({ unit: 'grapheme', minLength: 8, maxLength: 24 })
  .filter((s) => [...s].length >= 8);

/** The secret function as sync or async, for the implementations that can await it. */
function asFunction(give: () => unknown, async: boolean): WebhookSecretFunction {
  return (async ? async () => give() : give) as WebhookSecretFunction;
}

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe.each(implementations)(
  'secret function — $name',
  ({ name, sign, verify, verifySignature }) => {
    const canAwait = name !== 'node (sync)';
    const forms = canAwait ? [false, true] : [false];

    it.each(forms)(
      'verifies with what the function gives (async: %s), calling it per request',
      async (async) => {
        const headers = await sign({ body: ALERT_BODY, secret: SECRET, timestamp: NOW });
        let calls = 0;
        const secret = asFunction(() => {
          calls += 1;
          return SECRET;
        }, async);
        expect(await verify({ body: ALERT_BODY, headers, secret, now })).toEqual(
          JSON.parse(ALERT_BODY),
        );
        expect(await verifySignature({ body: ALERT_BODY, headers, secret, now })).toBe(ALERT_BODY);
        expect(calls).toBe(2);
      },
    );

    it('follows a function whose secret changes over time (rotation, more secrets than the key cache)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(secretArbitrary, { minLength: 2, maxLength: 40 }),
          fc.boolean(),
          fc.boolean(),
          async (secrets, async, asList) => {
            let current = secrets[0]!;
            const secret = asFunction(() => (asList ? [current] : current), async && canAwait);
            for (const [index, value] of secrets.entries()) {
              current = value;
              const headers = await sign({ body: ALERT_BODY, secret: value, timestamp: NOW });
              expect(await codeOf(verify({ body: ALERT_BODY, headers, secret, now }))).toBe('ok');
              if (index === 0) continue;
              const previous = secrets[index - 1]!;
              const old = await sign({ body: ALERT_BODY, secret: previous, timestamp: NOW });
              expect(await codeOf(verify({ body: ALERT_BODY, headers: old, secret, now }))).toBe(
                'signature_mismatch',
              );
            }
          },
        ),
        { numRuns: 15 },
      );
    });

    it.each(forms)(
      'is invalid_secret, never a refusal, for any invalid result (async: %s)',
      async (async) => {
        const headers = await sign({ body: ALERT_BODY, secret: SECRET, timestamp: NOW });
        const invalid = fc.anything().filter((value) => {
          const values = Array.isArray(value) ? value : [value];
          return (
            values.length === 0 ||
            values.some((each) => typeof each !== 'string' || [...each].length < 8) ||
            // A thenable result is awaited by the async paths: not what this property is about.
            typeof (value as { then?: unknown } | null)?.then === 'function'
          );
        });
        await fc.assert(
          fc.asyncProperty(invalid, async (value) => {
            const error = await errorOf(
              verify({ body: ALERT_BODY, headers, secret: asFunction(() => value, async), now }),
            );
            expect(isReceiverSetupError(error)).toBe(true);
            expect(error).toMatchObject({ code: 'invalid_secret' });
          }),
          { numRuns: 100 },
        );
      },
    );

    it.each(forms)(
      'says an unset variable is the likely cause of undefined (async: %s)',
      async (async) => {
        const headers = await sign({ body: ALERT_BODY, secret: SECRET, timestamp: NOW });
        const error = await errorOf(
          verify({ body: ALERT_BODY, headers, secret: asFunction(() => undefined, async), now }),
        );
        expect(error).toMatchObject({ code: 'invalid_secret' });
        expect((error as Error).message).toMatch(/missing: an unset environment variable/);
      },
    );

    it('never puts a short secret it gave in the message', async () => {
      const headers = await sign({ body: ALERT_BODY, secret: SECRET, timestamp: NOW });
      const error = await errorOf(
        verify({ body: ALERT_BODY, headers, secret: () => 'Short7!', now }),
      );
      expect(error).toMatchObject({ code: 'invalid_secret' });
      expect((error as Error).message).not.toContain('Short7!');
    });

    it('turns a sync throw into invalid_secret with the thrown error as cause', async () => {
      const headers = await sign({ body: ALERT_BODY, secret: SECRET, timestamp: NOW });
      const thrown = new Error('vault unreachable');
      const error = await errorOf(
        verify({
          body: ALERT_BODY,
          headers,
          secret: () => {
            throw thrown;
          },
          now,
        }),
      );
      expect(isWebhookVerificationError(error) && error.code).toBe('invalid_secret');
      expect((error as Error).cause).toBe(thrown);
      expect(isReceiverSetupError(error)).toBe(true);
    });

    it.runIf(canAwait)(
      'turns an async rejection into invalid_secret with the reason as cause',
      async () => {
        const headers = await sign({ body: ALERT_BODY, secret: SECRET, timestamp: NOW });
        const reason = new Error('vault unreachable');
        const error = await errorOf(
          verify({ body: ALERT_BODY, headers, secret: () => Promise.reject(reason), now }),
        );
        expect(isWebhookVerificationError(error) && error.code).toBe('invalid_secret');
        expect((error as Error).cause).toBe(reason);
      },
    );

    it('is checked before the delivery: an unsigned request with a failing function is a setup error', async () => {
      const error = await errorOf(
        verify({ body: ALERT_BODY, headers: {}, secret: () => undefined, now }),
      );
      expect(error).toMatchObject({ code: 'invalid_secret' });
    });
  },
);

describe('secret function on the synchronous Node path', () => {
  it('refuses an async function with invalid_secret, and its rejection is not left unhandled', async () => {
    const headers = await nodeEntry.signWebhook({
      body: ALERT_BODY,
      secret: SECRET,
      timestamp: NOW,
    });
    let settled = false;
    const rejecting = () =>
      Promise.reject(new Error('vault unreachable')).finally(() => {
        settled = true;
      });
    for (const secret of [async () => SECRET, rejecting]) {
      let caught: unknown;
      try {
        nodeEntry.verifyWebhookSync({ body: ALERT_BODY, headers, secret, now });
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ code: 'invalid_secret' });
      expect((caught as Error).message).toMatch(/promise.*verifyWebhook|Sync functions/);
    }
    // vitest fails the run on an unhandled rejection; wait until the rejection has settled.
    await expect.poll(() => settled).toBe(true);
  });
});

describe('safeVerifyWebhook with a secret function', () => {
  it('throws a failing function (a setup error) and still returns refused deliveries', async () => {
    const headers = await nodeEntry.signWebhook({
      body: ALERT_BODY,
      secret: SECRET,
      timestamp: NOW,
    });
    for (const safe of [safeVerifyWebhook, nodeEntry.safeVerifyWebhook]) {
      await expect(
        safe({ body: ALERT_BODY, headers, secret: async () => undefined, now }),
      ).rejects.toMatchObject({ code: 'invalid_secret' });
      expect(
        await safe({ body: ALERT_BODY, headers, secret: async () => 'another-secret', now }),
      ).toMatchObject({ ok: false, code: 'signature_mismatch' });
      expect(
        await safe({ body: ALERT_BODY, headers, secret: async () => SECRET, now }),
      ).toMatchObject({
        ok: true,
      });
    }
  });
});
