import { setTimeout as sleep } from 'node:timers/promises';
import { createSampleAlert } from '@cspwatch/webhooks/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createWebhookSender } from '../delivery/create-sender';
import {
  type ChannelStateStore,
  createMemoryChannelStateStore,
  FAILURES_BEFORE_DISABLE,
} from './channel-state';

const FAIL = { ok: false, failuresToDisable: FAILURES_BEFORE_DISABLE };
const OK = { ok: true, failuresToDisable: FAILURES_BEFORE_DISABLE };

describe('createMemoryChannelStateStore', () => {
  it('starts an unknown channel enabled with no failures', async () => {
    expect(await createMemoryChannelStateStore().get('nope')).toEqual({
      consecutiveFailures: 0,
      disabled: false,
    });
  });

  it('counts concurrent failures like INCR, and exactly one of them is disabledNow', async () => {
    const store = createMemoryChannelStateStore();
    const results = await Promise.all(
      Array.from({ length: 100 }, () => store.recordAttempt('a', FAIL)),
    );
    expect(results.map((r) => r.consecutiveFailures).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
    expect(results.filter((r) => r.disabledNow)).toEqual([
      { consecutiveFailures: FAILURES_BEFORE_DISABLE, disabled: true, disabledNow: true },
    ]);
    expect(await store.get('b')).toEqual({ consecutiveFailures: 0, disabled: false });
  });

  it('resets the count on a success, which keeps a disabled channel disabled', async () => {
    const store = createMemoryChannelStateStore();
    for (let i = 0; i < 6; i++) await store.recordAttempt('a', FAIL);
    expect(await store.recordAttempt('a', OK)).toEqual({
      consecutiveFailures: 0,
      disabled: true,
      disabledNow: false,
    });
    await store.recordAttempt('a', FAIL);
    await store.enable('a');
    expect(await store.get('a')).toEqual({ consecutiveFailures: 0, disabled: false });
  });

  it('never answers disabledNow for a channel disabled by hand', async () => {
    const store = createMemoryChannelStateStore();
    expect(await store.disable('a')).toBe(true);
    expect(await store.disable('a')).toBe(false);
    const results = [];
    for (let i = 0; i < 7; i++) results.push(await store.recordAttempt('a', FAIL));
    expect(results.some((r) => r.disabledNow)).toBe(false);
  });

  it('matches a model of the rule on any sequence of attempts, enables and disables', () => {
    type Step = 'ok' | 'fail' | 'enable' | 'disable';
    const step = fc.constantFrom<Step>('ok', 'fail', 'fail', 'fail', 'enable', 'disable');
    return fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 60 }),
        fc.integer({ min: 1, max: 6 }),
        async (steps, limit) => {
          const store = createMemoryChannelStateStore();
          let count = 0;
          let off = false;
          for (const s of steps) {
            if (s === 'enable') {
              await store.enable('c');
              [count, off] = [0, false];
            } else if (s === 'disable') {
              expect(await store.disable('c')).toBe(!off);
              off = true;
            } else {
              count = s === 'ok' ? 0 : count + 1;
              const now: boolean = s === 'fail' && count >= limit && !off;
              off ||= now;
              expect(
                await store.recordAttempt('c', { ok: s === 'ok', failuresToDisable: limit }),
              ).toEqual({
                consecutiveFailures: count,
                disabled: off,
                disabledNow: now,
              });
            }
          }
        },
      ),
    );
  });
});

/** A store whose every call takes a random few milliseconds, like a network store (Redis). */
function slowStore(inner: ChannelStateStore): ChannelStateStore {
  const lag = () => sleep(Math.floor(Math.random() * 4));
  return {
    get: async (id) => {
      await lag();
      return inner.get(id);
    },
    recordAttempt: async (id, attempt) => {
      await lag();
      return inner.recordAttempt(id, attempt);
    },
    disable: async (id) => {
      await lag();
      return inner.disable(id);
    },
    enable: async (id) => {
      await lag();
      return inner.enable(id);
    },
  };
}

describe('failure counting through the sender with a shared, slow store', () => {
  const channel = { id: 'shared', url: 'https://hooks.example.com/', secret: 'shared-secret' };
  // The name resolves to a private address: refused at delivery, a counted failure.
  const resolver = async () => ['10.0.0.1'];

  it('two senders, 20 parallel failures: consistent count, disabled exactly once', async () => {
    const store = slowStore(createMemoryChannelStateStore());
    const senders = [
      createWebhookSender({ store, resolver }),
      createWebhookSender({ store, resolver }),
    ];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => senders[i % 2]!.deliver(channel, createSampleAlert())),
    );
    const failed = results.filter((r) => r.cause === 'target_rejected');
    const skipped = results.filter((r) => r.cause === 'channel_disabled');
    expect(failed.length + skipped.length).toBe(20);
    expect(failed.map((r) => r.consecutiveFailures).sort((a, b) => a - b)).toEqual(
      failed.map((_, i) => i + 1),
    );
    expect(results.filter((r) => r.disabledNow)).toHaveLength(1);
    expect(await store.get(channel.id)).toEqual({
      consecutiveFailures: failed.length,
      disabled: true,
    });
    await Promise.all(senders.map((s) => s.close()));
  });

  it('after disabling, sends nothing until enabled', async () => {
    const store = createMemoryChannelStateStore();
    const resolved: string[] = [];
    const sender = createWebhookSender({
      store,
      resolver: async (name) => {
        resolved.push(name);
        return ['10.9.9.9'];
      },
    });
    const named = { ...channel, id: 'named' };
    for (let i = 0; i < 5; i++) await sender.deliver(named, createSampleAlert());
    expect(resolved).toHaveLength(5);
    const skipped = await sender.deliver(named, createSampleAlert());
    expect(skipped).toMatchObject({ cause: 'channel_disabled', durationMs: 0, disabled: true });
    expect(resolved).toHaveLength(5);
    await sender.enable(named.id);
    await sender.deliver(named, createSampleAlert());
    expect(resolved).toHaveLength(6);
    expect(await store.get(named.id)).toEqual({ consecutiveFailures: 1, disabled: false });
    await sender.close();
  });

  it('reports a URL refused as written (the channel configuration) without counting it', async () => {
    const store = createMemoryChannelStateStore();
    const sender = createWebhookSender({ store });
    for (const url of ['http://hooks.example.com/', 'https://10.0.0.1/', 'not a url']) {
      for (let i = 0; i < 6; i++) {
        const result = await sender.deliver({ ...channel, id: url, url }, createSampleAlert());
        expect(result).toMatchObject({ ok: false, cause: 'target_rejected', disabledNow: false });
        expect(result.rejection?.stage).toBe('url');
      }
      expect(await store.get(url)).toEqual({ consecutiveFailures: 0, disabled: false });
    }
    await sender.close();
  });
});
