import { describe, expect, it } from 'vitest';
import { cspwatchWebhook } from '../src/express';
import { cspwatchFastify } from '../src/fastify';
import {
  createMemoryReplayStore,
  createReplayGuard,
  isWebhookVerificationError,
  type WebhookVerificationError,
} from '../src/index';
import { withCspwatchWebhook } from '../src/next';

const SECRET = 'option-typos-secret';

/** What a constructor threw, for an `invalid_options` error; fails the test otherwise. */
function setupError(create: () => unknown): WebhookVerificationError {
  let caught: unknown;
  try {
    create();
  } catch (error) {
    caught = error;
  }
  if (!isWebhookVerificationError(caught)) throw new Error(`expected a throw, got ${caught}`);
  expect(caught.code).toBe('invalid_options');
  return caught;
}

// Options handed over untyped (JavaScript, or a config object built elsewhere).
const untyped = <T>(options: object) => options as T;

const adapters = [
  ['cspwatchWebhook (Express)', (options: object) => cspwatchWebhook(untyped(options))],
  ['cspwatchFastify', (options: object) => cspwatchFastify(untyped(options))],
  [
    'withCspwatchWebhook (Next.js)',
    (options: object) => withCspwatchWebhook(() => new Response(null), untyped(options)),
  ],
] as const;

describe.each(adapters)('%s refuses a misspelt option rather than ignore it', (_, create) => {
  it('names a misspelt replay option (the guard would be silently off)', () => {
    const error = setupError(() => create({ secret: SECRET, replays: true }));
    expect(error.issues).toEqual([
      { path: 'replays', code: 'unknown_option', message: expect.stringContaining('`replay`') },
    ]);
  });

  it('names a misspelt tolerance (the default would be silently used)', () => {
    const error = setupError(() => create({ secret: SECRET, toleranceMS: 1000 }));
    expect(error.message).toMatch(/toleranceMS: unknown option \(did you mean `toleranceMs`\?\)/);
  });

  it('names a misspelt guard option inside replay (the key would silently be the signature)', () => {
    const error = setupError(() => create({ secret: SECRET, replay: { keys: 'id' } }));
    expect(error.message).toMatch(/keys: unknown option \(did you mean `key`\?\)/);
  });

  it('refuses a replay option that is neither a boolean, the guard options nor a guard', () => {
    for (const replay of ['id', 1, null]) {
      const error = setupError(() => create({ secret: SECRET, replay }));
      expect(error.issues.map((each) => each.path)).toEqual(['replay']);
    }
  });

  it('refuses a clock that is not a function and header names that are not text', () => {
    const error = setupError(() =>
      create({ secret: SECRET, now: 5, headerNames: { timestamp: 5, signature: '' } }),
    );
    expect(error.issues.map(({ path, code }) => [path, code])).toEqual([
      ['now', 'wrong_type'],
      ['headerNames.timestamp', 'wrong_type'],
      ['headerNames.signature', 'invalid'],
    ]);
  });

  it('still takes every documented option', () => {
    expect(() =>
      create({
        secret: SECRET,
        toleranceMs: 1000,
        now: Date.now,
        headerNames: { timestamp: 'x-acme-timestamp' },
        maxBodyBytes: 4096,
        onRejected: () => {},
        replay: { key: 'id', ttlMs: 60_000, prefix: 'acme:' },
      }),
    ).not.toThrow();
  });
});

describe('the replay guard and the memory store refuse a misspelt option', () => {
  it('createReplayGuard', () => {
    const error = setupError(() => createReplayGuard(untyped({ keys: 'id', ttl: 5 })));
    expect(error.issues.map(({ path, code }) => [path, code])).toEqual([
      ['keys', 'unknown_option'],
      ['ttl', 'unknown_option'],
    ]);
    expect(error.message).toContain('did you mean `key`?');
  });

  it('createMemoryReplayStore', () => {
    const error = setupError(() => createMemoryReplayStore(untyped({ maxEntrys: 5 })));
    expect(error.message).toBe('maxEntrys: unknown option (did you mean `maxEntries`?)');
  });
});

describe.each(adapters)('%s given a ready replay guard', (_, create) => {
  const headerNames = { signature: 'X-Sig' };

  it('refuses one keyed on another signature header than it verifies (a replay would set that one)', () => {
    const error = setupError(() =>
      create({ secret: SECRET, headerNames, replay: createReplayGuard() }),
    );
    expect(error.issues).toEqual([
      {
        path: 'replay',
        code: 'invalid',
        message: expect.stringContaining("createReplayGuard({ signatureHeader: 'X-Sig' })"),
      },
    ]);
  });

  it('takes one that reads the header it verifies, in any case, or one keyed on the payload id', () => {
    expect(() =>
      create({
        secret: SECRET,
        headerNames,
        replay: createReplayGuard({ signatureHeader: 'x-sig' }),
      }),
    ).not.toThrow();
    expect(() =>
      create({ secret: SECRET, headerNames, replay: createReplayGuard({ key: 'id' }) }),
    ).not.toThrow();
    expect(() => create({ secret: SECRET, replay: createReplayGuard() })).not.toThrow();
  });
});
