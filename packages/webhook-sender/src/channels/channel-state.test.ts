import { setTimeout as sleep } from 'node:timers/promises';
import { createSampleAlert } from '@cspwatch/webhooks/testing';
import { describe, expect, it } from 'vitest';
import { createWebhookSender } from '../delivery/create-sender';
import { type ChannelStateStore, createMemoryChannelStateStore } from './channel-state';

describe('createMemoryChannelStateStore', () => {
  it('starts an unknown channel enabled with no failures', async () => {
    expect(await createMemoryChannelStateStore().get('nope')).toEqual({
      consecutiveFailures: 0,
      disabled: false,
    });
  });

  it('increments like INCR, each concurrent call getting its own count', async () => {
    const store = createMemoryChannelStateStore();
    const counts = await Promise.all(Array.from({ length: 100 }, () => store.recordFailure('a')));
    expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(await store.get('b')).toEqual({ consecutiveFailures: 0, disabled: false });
  });

  it('disables once: only the call that changed the flag gets true', async () => {
    const store = createMemoryChannelStateStore();
    const flips = await Promise.all(Array.from({ length: 10 }, () => store.disable('a')));
    expect(flips.filter(Boolean)).toHaveLength(1);
    expect((await store.get('a')).disabled).toBe(true);
  });

  it('keeps a disabled channel disabled on success, and enable resets everything', async () => {
    const store = createMemoryChannelStateStore();
    for (let i = 0; i < 6; i++) await store.recordFailure('a');
    await store.disable('a');
    await store.recordSuccess('a');
    expect(await store.get('a')).toEqual({ consecutiveFailures: 0, disabled: true });
    await store.recordFailure('a');
    await store.enable('a');
    expect(await store.get('a')).toEqual({ consecutiveFailures: 0, disabled: false });
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
    recordFailure: async (id) => {
      await lag();
      return inner.recordFailure(id);
    },
    recordSuccess: async (id) => {
      await lag();
      return inner.recordSuccess(id);
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
  const channel = { id: 'shared', url: 'https://10.0.0.1/hook', secret: 'shared-secret' };

  it('two senders, 20 parallel failures: consistent count, disabled exactly once', async () => {
    const store = slowStore(createMemoryChannelStateStore());
    const senders = [createWebhookSender({ store }), createWebhookSender({ store })];
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
    const named = { ...channel, id: 'named', url: 'https://hooks.example.com/' };
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
});
