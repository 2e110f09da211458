import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';
import { createSampleAlert } from '../src/alerts/sample-alert';
import {
  createMemoryReplayStore,
  createReplayGuard,
  isReceiverSetupError,
  isWebhookVerificationError,
  type ReplayStore,
  releaseReplayClaim,
  SIGNATURE_HEADER,
} from '../src/index';
import { signWebhookSync, verifyWebhookSync } from '../src/node';
import { ALERT_BODY, NOW, SECRET } from './implementations';

/**
 * Memory retained after full GCs: JS heap plus ArrayBuffers (where the store keeps claims).
 * The wait lets V8 free the backing stores of collected ArrayBuffers, which it does after
 * the collection, on another thread.
 */
async function retainedMemory(): Promise<number> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/** Documented bound of the memory store: 16 B a slot, fewer than 4 slots an entry. */
const BYTES_PER_ENTRY = 64;

const codeOfSync = (run: () => unknown) => {
  try {
    run();
    return 'ok';
  } catch (error) {
    if (isWebhookVerificationError(error)) return error.code;
    throw error;
  }
};

describe('createMemoryReplayStore', () => {
  it('claims a key once until its ttl passes, then again', () => {
    let time = 1_000;
    const store = createMemoryReplayStore({ now: () => time });
    expect(store.claim('a', 100)).toBe(true);
    expect(store.claim('a', 100)).toBe(false);
    time += 99;
    expect(store.claim('a', 100)).toBe(false);
    time += 1;
    expect(store.claim('a', 100)).toBe(true);
  });

  it('release frees a key at once', () => {
    const store = createMemoryReplayStore();
    expect(store.claim('a', 60_000)).toBe(true);
    store.release('a');
    expect(store.claim('a', 60_000)).toBe(true);
    store.release('never-claimed');
  });

  it('fails closed when full of live claims, and never forgets a live one to make room', () => {
    let time = 0;
    const store = createMemoryReplayStore({ maxEntries: 3, now: () => time });
    for (const key of ['a', 'b', 'c']) expect(store.claim(key, 1_000)).toBe(true);
    expect(() => store.claim('d', 1_000)).toThrow(
      expect.objectContaining({ code: 'replay_store_unavailable' }),
    );
    // The live claims are all still there: a replay of any is refused, not accepted.
    for (const key of ['a', 'b', 'c']) expect(store.claim(key, 1_000)).toBe(false);
    time = 1_000;
    expect(store.claim('d', 1_000)).toBe(true);
    expect(store.size).toBeLessThanOrEqual(3);
  });

  it('makes room from expired claims even when ttls differ (not only the oldest)', () => {
    let time = 0;
    const store = createMemoryReplayStore({ maxEntries: 2, now: () => time });
    store.claim('long', 10_000);
    store.claim('short', 10);
    time = 20;
    expect(store.claim('new', 10)).toBe(true);
    expect(store.claim('long', 10_000)).toBe(false);
  });

  it('refuses bad options, ttls and clocks with invalid_options, saying what to fix', () => {
    const invalid = (message: RegExp) =>
      expect.objectContaining({
        name: 'WebhookVerificationError',
        code: 'invalid_options',
        message: expect.stringMatching(message),
      });
    expect(() => createMemoryReplayStore({ maxEntries: 0 })).toThrow(invalid(/maxEntries/));
    expect(() => createMemoryReplayStore({ maxEntries: 2 ** 26 + 1 })).toThrow(invalid(/67108864/));
    expect(() => createMemoryReplayStore().claim('a', 0)).toThrow(invalid(/ttlMs/));
    expect(() => createMemoryReplayStore().claim('a', Number.NaN)).toThrow(invalid(/ttlMs/));
    expect(() => createMemoryReplayStore(null as never)).toThrow(invalid(/options object/));
    expect(() => createMemoryReplayStore({ now: 5 as never })).toThrow(invalid(/now/));
    // A clock that cannot tell the time would make every claim look expired: fail closed.
    const broken = createMemoryReplayStore({ now: () => Number.NaN });
    expect(() => broken.claim('a', 1_000)).toThrow(invalid(/now\(\)/));
  });

  it('answers as a map of live claims would, through growth, sweeps, releases and a full table', () => {
    // Model: a key is live until its expiry. A claim of a live key is a replay; of another key
    // it succeeds while fewer than maxEntries keys are live and fails closed at maxEntries.
    // Near the bound the store sweeps once every s + 1 = maxEntries / 16 new claims, so it may
    // take s more or refuse with s fewer live (exact below 32 entries, where s is 0).
    const step = fc.oneof(
      fc.record({
        op: fc.constant('claim' as const),
        key: fc.nat(60),
        ttl: fc.integer({ min: 1, max: 200 }),
      }),
      fc.record({ op: fc.constant('release' as const), key: fc.nat(60) }),
      fc.record({ op: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 30 }) }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70 }),
        fc.array(step, { minLength: 1, maxLength: 600, size: 'max' }),
        (maxEntries, steps) => {
          const s = Math.max(1, Math.floor(maxEntries / 16)) - 1;
          let time = 1_000;
          const store = createMemoryReplayStore({ maxEntries, now: () => time });
          const model = new Map<string, number>();
          for (const action of steps) {
            if (action.op === 'wait') {
              time += action.ms;
              continue;
            }
            const key = `key-${action.key}`;
            if (action.op === 'release') {
              store.release(key);
              model.delete(key);
              continue;
            }
            const live = [...model.values()].filter((expiry) => expiry > time).length;
            const allowed =
              (model.get(key) ?? 0) > time
                ? ['replayed']
                : live >= maxEntries + s
                  ? ['replay_store_unavailable']
                  : live >= maxEntries - s
                    ? ['claimed', 'replay_store_unavailable']
                    : ['claimed'];
            let answer: string;
            try {
              answer = store.claim(key, action.ttl) ? 'claimed' : 'replayed';
            } catch (error) {
              answer = isWebhookVerificationError(error) ? error.code : String(error);
            }
            expect(allowed).toContain(answer);
            if (answer === 'claimed') model.set(key, time + action.ttl);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps every other claim live when some are released (no probe chain is cut)', () => {
    const store = createMemoryReplayStore({ maxEntries: 2_000, now: () => NOW });
    const keys = Array.from({ length: 2_000 }, (_, index) => `sha256=${index}`);
    for (const key of keys) expect(store.claim(key, 60_000)).toBe(true);
    for (const [index, key] of keys.entries()) if (index % 2 === 0) store.release(key);
    for (const [index, key] of keys.entries()) {
      expect(store.claim(key, 60_000)).toBe(index % 2 === 0);
    }
  });

  it('when full of live claims, lets one new claim into each slot a release frees, and no more', () => {
    const store = createMemoryReplayStore({ maxEntries: 1_000, now: () => NOW });
    for (let index = 0; index < 1_000; index++) store.claim(`held-${index}`, 600_000);
    for (let index = 0; index < 50; index++) {
      store.release(`held-${index}`);
      expect(store.claim(`new-${index}`, 600_000)).toBe(true);
      expect(() => store.claim(`extra-${index}`, 600_000)).toThrow(
        expect.objectContaining({ code: 'replay_store_unavailable' }),
      );
      expect(store.claim(`held-${index + 50}`, 600_000)).toBe(false);
    }
    expect(store.size).toBe(1_000);
  });

  it('at its bound under steady traffic, makes room as claims expire and never lets a replay in', () => {
    let time = NOW;
    const store = createMemoryReplayStore({ maxEntries: 1_600, now: () => time });
    const claimed = new Set<number>();
    for (let index = 0; index < 20_000; index++) {
      time += 1; // one new delivery a ms, each claim lasting 1,600 ms: the store stays full
      try {
        if (store.claim(`sha256=${index}`, 1_600)) claimed.add(index);
      } catch (error) {
        expect(error).toMatchObject({ code: 'replay_store_unavailable' });
      }
      // A claim made 1,599 ms ago is still live: a replay of it is refused.
      const earlier = index - 1_599;
      if (claimed.has(earlier)) expect(store.claim(`sha256=${earlier}`, 1_600)).toBe(false);
    }
    // As many claims expire as come in: none is refused.
    expect(claimed.size).toBe(20_000);
  });

  it('takes the same memory whatever the length of its keys (no key is kept)', async () => {
    const before = await retainedMemory();
    const store = createMemoryReplayStore({ maxEntries: 20_000, now: () => NOW });
    for (let index = 0; index < 20_000; index++) {
      expect(store.claim(`${index}:${'k'.repeat(2_000)}`, 60_000)).toBe(true);
    }
    expect(store.claim(`7:${'k'.repeat(2_000)}`, 60_000)).toBe(false);
    // 40 MB of keys went through it; the store holds 16 B a slot.
    expect((await retainedMemory()) - before).toBeLessThan(20_000 * BYTES_PER_ENTRY);
  });

  it(
    'holds a flood of 100,000 distinct valid deliveries within its bound, then fails closed',
    async () => {
      const body = Buffer.from(ALERT_BODY);
      /** Sends `count` distinct deliveries (each timestamp in the window signs its own) to `guard`. */
      const flood = (guard: ReturnType<typeof createReplayGuard>, count: number) => {
        let accepted = 0;
        for (let index = 0; index < count; index++) {
          const signed = signWebhookSync({ body, secret: SECRET, timestamp: NOW - index });
          const event = verifyWebhookSync({
            body,
            headers: signed,
            secret: SECRET,
            now: () => NOW,
          });
          guard.claimSync(event, signed);
          accepted++;
        }
        return accepted;
      };
      // Warm-up through a store that keeps nothing: code compiled and caches filled, so the
      // figure below is what the store retains.
      flood(createReplayGuard({ store: { claim: () => true, release: () => {} } }), 20_000);
      const store = createMemoryReplayStore({ maxEntries: 100_000, now: () => NOW });
      const guard = createReplayGuard({ store });
      const before = await retainedMemory();
      const accepted = flood(guard, 100_000);
      const grown = (await retainedMemory()) - before;
      expect(accepted).toBe(100_000);
      expect(store.size).toBe(100_000);
      // Documented bound: 16 B a slot, fewer than 4 slots an entry (4 MiB at the default 100,000).
      expect(grown).toBeLessThan(100_000 * BYTES_PER_ENTRY);
      const next = signWebhookSync({ body: `${ALERT_BODY}\n`, secret: SECRET, timestamp: NOW });
      const event = verifyWebhookSync({
        body: `${ALERT_BODY}\n`,
        headers: next,
        secret: SECRET,
        now: () => NOW,
      });
      expect(codeOfSync(() => guard.claimSync(event, next))).toBe('replay_store_unavailable');
    },
    budget(60_000),
  );
});

describe('createReplayGuard', () => {
  const deliver = (payload = ALERT_BODY, timestamp = NOW) => {
    const headers = signWebhookSync({ body: payload, secret: SECRET, timestamp });
    return {
      headers,
      event: verifyWebhookSync({ body: payload, headers, secret: SECRET, now: () => NOW }),
    };
  };

  it("key 'signature' refuses the same request again but lets a re-signed retry through", async () => {
    const guard = createReplayGuard();
    const first = deliver();
    const claim = await guard.claim(first.event, first.headers);
    expect(claim.key).toBe(`cspwatch:sig:${first.headers[SIGNATURE_HEADER]}`);
    await expect(guard.claim(first.event, first.headers)).rejects.toMatchObject({
      code: 'replayed_delivery',
    });
    const retry = deliver(ALERT_BODY, NOW + 1);
    await expect(guard.claim(retry.event, retry.headers)).resolves.toBeDefined();
  });

  it("key 'id' refuses the same alert again even re-signed (idempotency)", async () => {
    const guard = createReplayGuard({ key: 'id', prefix: 'app1:' });
    const first = deliver();
    expect((await guard.claim(first.event, first.headers)).key).toBe(`app1:id:${first.event.id}`);
    const retry = deliver(ALERT_BODY, NOW + 1);
    await expect(guard.claim(retry.event, retry.headers)).rejects.toMatchObject({
      code: 'replayed_delivery',
    });
    const other = deliver(JSON.stringify(createSampleAlert()));
    await expect(guard.claim(other.event, other.headers)).resolves.toBeDefined();
  });

  it('claim.release() lets the same delivery through again, and is idempotent', async () => {
    const guard = createReplayGuard();
    const { event, headers } = deliver();
    const claim = await guard.claim(event, headers);
    await claim.release();
    const again = await guard.claim(event, headers);
    await claim.release(); // the first claim's second release must not free the new claim
    await expect(guard.claim(event, headers)).rejects.toMatchObject({ code: 'replayed_delivery' });
    await again.release();
    await expect(guard.claim(event, headers)).resolves.toBeDefined();
    await releaseReplayClaim(event); // no adapter claim registered for it: does nothing
    await expect(guard.claim(event, headers)).rejects.toMatchObject({ code: 'replayed_delivery' });
  });

  it('claims for the whole time a delivery stays fresh: 2 × tolerance + 60 s by default', async () => {
    const ttls: number[] = [];
    const store: ReplayStore = {
      claim: (_key, ttlMs) => {
        ttls.push(ttlMs);
        return true;
      },
      release: () => {},
    };
    const { event, headers } = deliver();
    await createReplayGuard({ store }).claim(event, headers);
    await createReplayGuard({ store, toleranceMs: 1_000 }).claim(event, headers);
    await createReplayGuard({ store, ttlMs: 86_400_000 }).claim(event, headers);
    expect(ttls).toEqual([660_000, 62_000, 86_400_000]);
  });

  it('turns a store that throws or rejects into replay_store_unavailable with the cause (fail closed)', async () => {
    const down = new Error('ECONNREFUSED');
    const { event, headers } = deliver();
    for (const store of [
      { claim: () => Promise.reject(down), release: async () => {} },
      {
        claim: (): boolean => {
          throw down;
        },
        release: () => {},
      },
    ]) {
      const error = await createReplayGuard({ store })
        .claim(event, headers)
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'replay_store_unavailable', cause: down });
    }
  });

  it('a store passed in is asked for the full key, the one the claim reports and releases', async () => {
    const calls: string[] = [];
    const store = createMemoryReplayStore();
    const recording: ReplayStore = {
      claim: (key, ttlMs) => {
        calls.push(`claim ${key}`);
        return store.claim(key, ttlMs);
      },
      release: (key) => {
        calls.push(`release ${key}`);
        store.release(key);
      },
    };
    const { event, headers } = deliver();
    for (const guard of [
      createReplayGuard({ store: recording, prefix: 'app1:' }),
      createReplayGuard({ store: recording, prefix: 'app2:' }),
    ]) {
      const claim = await guard.claim(event, headers);
      await claim.release();
      expect(calls.splice(0)).toEqual([`claim ${claim.key}`, `release ${claim.key}`]);
    }
    const key = `app1:sig:${headers[SIGNATURE_HEADER]}`;
    expect(store.claim(key, 1_000)).toBe(true);
    await expect(
      createReplayGuard({ store, prefix: 'app1:' }).claim(event, headers),
    ).rejects.toMatchObject({ code: 'replayed_delivery' });
  });

  it("keeps each guard's own store to itself", async () => {
    const { event, headers } = deliver();
    const [first, second] = [createReplayGuard(), createReplayGuard()];
    const claim = await first.claim(event, headers);
    expect(claim.key).toBe(`cspwatch:sig:${headers[SIGNATURE_HEADER]}`);
    expect(second.claimSync(event, headers).key).toBe(claim.key);
    expect(codeOfSync(() => first.claimSync(event, headers))).toBe('replayed_delivery');
    await claim.release();
    expect(first.claimSync(event, headers).key).toBe(claim.key);
  });

  it('claim takes the answer of a sync and of an async store alike', async () => {
    const { event, headers } = deliver();
    const held = new Set<string>();
    const take = (key: string): boolean => {
      if (held.has(key)) return false;
      held.add(key);
      return true;
    };
    for (const store of [
      { claim: take, release: (key: string) => void held.delete(key) },
      {
        claim: async (key: string) => take(key),
        release: async (key: string) => void held.delete(key),
      },
    ]) {
      held.clear();
      const guard = createReplayGuard({ store });
      const claim = await guard.claim(event, headers);
      await expect(guard.claim(event, headers)).rejects.toMatchObject({
        code: 'replayed_delivery',
      });
      await claim.release();
      await expect(guard.claim(event, headers)).resolves.toMatchObject({ key: claim.key });
    }
  });

  it('claimSync refuses an async store instead of treating a Promise as a claim', () => {
    const { event, headers } = deliver();
    const guard = createReplayGuard({
      store: { claim: async () => true, release: async () => {} },
    });
    expect(() => guard.claimSync(event, headers)).toThrow(
      expect.objectContaining({
        code: 'invalid_options',
        message: expect.stringMatching(/SyncReplayStore/),
      }),
    );
  });

  it('refuses bad options when created, with invalid_options (a setup error, not a bad delivery)', () => {
    for (const [options, message] of [
      [{ key: 'body' as never }, /'signature' or 'id'/],
      [{ ttlMs: 0 }, /ttlMs/],
      [{ store: {} as never }, /claim\(key, ttlMs\) and release\(key\)/],
      [{ signatureHeader: 42 as never }, /signatureHeader/],
      [{ prefix: null as never }, /prefix/],
      [null as never, /options object/],
    ] as const) {
      let thrown: unknown;
      try {
        createReplayGuard(options);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({
        code: 'invalid_options',
        message: expect.stringMatching(message),
      });
      expect(isReceiverSetupError(thrown)).toBe(true);
    }
  });
});
