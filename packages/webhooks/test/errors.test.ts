import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cspwatchWebhook } from '../src/express';
import {
  createReplayGuard,
  isReceiverSetupError,
  isWebhookVerificationError,
  WebhookVerificationError,
} from '../src/index';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const built = existsSync(`${dist}index.cjs`) && existsSync(`${dist}node.js`);
const require = createRequire(import.meta.url);

type ErrorClass = new (code: 'signature_mismatch', message: string) => Error;

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('WebhookVerificationError', () => {
  it.skipIf(!built)(
    'is recognised across copies: the CJS Web build and the ESM Node build',
    async () => {
      const web = require(`${dist}index.cjs`) as { WebhookVerificationError: ErrorClass };
      const node = (await import(pathToFileURL(`${dist}node.js`).href)) as {
        WebhookVerificationError: ErrorClass;
        isWebhookVerificationError: (value: unknown) => boolean;
      };
      expect(web.WebhookVerificationError).not.toBe(node.WebhookVerificationError);
      const fromWeb = new web.WebhookVerificationError('signature_mismatch', 'no match');
      expect(fromWeb instanceof node.WebhookVerificationError).toBe(true);
      expect(node.isWebhookVerificationError(fromWeb)).toBe(true);
      expect(new node.WebhookVerificationError('signature_mismatch', 'x')).toBeInstanceOf(
        web.WebhookVerificationError,
      );
      expect(new Error('x') instanceof node.WebhookVerificationError).toBe(false);
    },
  );

  it('recognises an error thrown by 0.1.0 (the same marker), and nothing without it', () => {
    const released = Object.assign(new Error('Signature mismatch'), { code: 'signature_mismatch' });
    Object.defineProperty(released, Symbol.for('@cspwatch/webhooks.WebhookVerificationError'), {
      value: true,
    });
    expect(released instanceof WebhookVerificationError).toBe(true);
    expect(isWebhookVerificationError(released)).toBe(true);
    expect(isWebhookVerificationError({ code: 'signature_mismatch' })).toBe(false);
  });

  it('keeps its name, code and cause, and has an empty issue list unless options were wrong', () => {
    const cause = new Error('stream reset');
    const error = new WebhookVerificationError('body_read_failed', 'failed', { cause });
    expect(error).toMatchObject({ name: 'WebhookVerificationError', code: 'body_read_failed' });
    expect(error.cause).toBe(cause);
    expect(error.issues).toEqual([]);
    expect(Object.isFrozen(error.issues)).toBe(true);
  });
});

describe('invalid_options lists each wrong option as an issue', () => {
  it('names the option, what to fix and what was given', () => {
    const error = thrown(() => cspwatchWebhook({ secret: 'a-long-secret', maxBodyBytes: 0 }));
    expect(error).toMatchObject({
      code: 'invalid_options',
      message: 'maxBodyBytes: must be an integer from 1 to 9007199254740991 (bytes), got 0',
      issues: [
        {
          path: 'maxBodyBytes',
          code: 'out_of_range',
          message: 'must be an integer from 1 to 9007199254740991 (bytes), got 0',
        },
      ],
    });
    expect(isReceiverSetupError(error)).toBe(true);
  });

  it('reports every wrong option of the replay guard at once', () => {
    const error = thrown(() =>
      createReplayGuard({ key: 'body' as never, ttlMs: 1.5, prefix: 7 as never }),
    ) as WebhookVerificationError;
    expect(error.issues.map(({ path, code }) => [path, code])).toEqual([
      ['key', 'invalid'],
      ['ttlMs', 'wrong_type'],
      ['prefix', 'wrong_type'],
    ]);
    expect(error.message).toBe(
      "key: must be 'signature' or 'id', got a string; " +
        'ttlMs: must be an integer from 1 to 9007199254740991 (ms), got 1.5; ' +
        'prefix: must be a string, got 7',
    );
  });
});
