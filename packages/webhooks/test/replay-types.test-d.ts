import { describe, expectTypeOf, it } from 'vitest';
import { cspwatchWebhook } from '../src/express';
import {
  type CspwatchEvent,
  createMemoryReplayStore,
  createReplayGuard,
  type ReplayClaim,
  type ReplayStore,
  type SyncReplayStore,
  safeVerifyWebhook,
  verifyWebhook,
  type WebhookVerificationErrorCode,
} from '../src/index';
import { safeVerifyWebhookSync } from '../src/node';

describe('public types of the replay guard, bodies and results', () => {
  it('accepts every raw body kind, and still refuses a parsed object at compile time', () => {
    const headers = {};
    const secret = 'x';
    void verifyWebhook({ body: new ArrayBuffer(1), headers, secret });
    void verifyWebhook({ body: new DataView(new ArrayBuffer(1)), headers, secret });
    void verifyWebhook({ body: Buffer.from(''), headers, secret });
    // @ts-expect-error a parsed object is not a raw body
    void verifyWebhook({ body: { eventType: 'x' }, headers, secret });
  });

  it('narrows the result form on ok', async () => {
    const result = await safeVerifyWebhook({ body: '', headers: {}, secret: 'x' });
    if (result.ok) expectTypeOf(result.event).toEqualTypeOf<CspwatchEvent>();
    else expectTypeOf(result.code).toEqualTypeOf<WebhookVerificationErrorCode>();
    expectTypeOf(safeVerifyWebhookSync).returns.toEqualTypeOf(result);
  });

  it('takes any ReplayStore; the memory store is a SyncReplayStore', () => {
    expectTypeOf(createMemoryReplayStore()).toExtend<SyncReplayStore>();
    const redisLike: ReplayStore = {
      claim: async () => true,
      release: async () => {},
    };
    const guard = createReplayGuard({ store: redisLike, key: 'id' });
    expectTypeOf(guard.claim).returns.resolves.toEqualTypeOf<ReplayClaim>();
    // @ts-expect-error only the two documented keys
    createReplayGuard({ key: 'body' });
    cspwatchWebhook({ secret: 'x', replay: true });
    cspwatchWebhook({ secret: 'x', replay: { store: redisLike, ttlMs: 1_000 } });
    cspwatchWebhook({ secret: 'x', replay: guard });
  });
});
