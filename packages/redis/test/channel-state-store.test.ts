import { createRedisChannelStateStore, isCspwatchRedisError } from '@cspwatch/redis';
import { type ChannelStateStore, createMemoryChannelStateStore } from '@cspwatch/webhook-sender';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type RedisServerHandle, startRedisServer } from './helpers/redis-server';
import { waitFor } from './helpers/wait-for';

let server: RedisServerHandle;
const clients: Redis[] = [];
const connect = (url = server.url) => {
  const client = new Redis(url, { maxRetriesPerRequest: null });
  clients.push(client);
  return client;
};
let run = 0;
/** Several stores on separate connections, like several processes, on a fresh key prefix. */
const redisStores = (count: number) => {
  const prefix = `test:${++run}`;
  return Array.from({ length: count }, () =>
    createRedisChannelStateStore({ redis: connect(), prefix }),
  );
};

beforeAll(async () => {
  server = await startRedisServer({ persistent: true });
});
afterAll(async () => {
  for (const client of clients) client.disconnect();
  await server.stop();
});

type Op = {
  client: number;
  method: 'fail' | 'ok' | 'disable' | 'enable' | 'get';
  channel: string;
};
const opArbitrary = (clientCount: number) =>
  fc.record({
    client: fc.integer({ min: 0, max: clientCount - 1 }),
    method: fc.constantFrom('fail', 'fail', 'ok', 'disable', 'enable', 'get' as const),
    channel: fc.constantFrom('ch_a', 'ch_b'),
  }) as fc.Arbitrary<Op>;

/** A low threshold, so that short op sequences reach it often. */
const failuresToDisable = 3;

async function apply(store: ChannelStateStore, op: Op): Promise<unknown> {
  if (op.method === 'fail' || op.method === 'ok') {
    return store.recordAttempt(op.channel, { ok: op.method === 'ok', failuresToDisable });
  }
  return store[op.method](op.channel);
}

const FAIL = { ok: false, failuresToDisable: 5 };

describe('createRedisChannelStateStore', () => {
  it('starts every channel enabled with 0 failures, counts, disables once at 5 and re-enables', async () => {
    const [store] = redisStores(1);
    expect(await store!.get('ch_new')).toEqual({ consecutiveFailures: 0, disabled: false });
    for (let i = 1; i < 5; i++) {
      expect(await store!.recordAttempt('ch_new', FAIL)).toEqual({
        consecutiveFailures: i,
        disabled: false,
        disabledNow: false,
      });
    }
    expect(await store!.recordAttempt('ch_new', FAIL)).toEqual({
      consecutiveFailures: 5,
      disabled: true,
      disabledNow: true,
    });
    expect(await store!.recordAttempt('ch_new', FAIL)).toMatchObject({ disabledNow: false });
    expect(await store!.disable('ch_new')).toBe(false);
    expect(await store!.get('ch_new')).toEqual({ consecutiveFailures: 6, disabled: true });
    await store!.recordAttempt('ch_new', { ok: true, failuresToDisable: 5 });
    expect(await store!.get('ch_new')).toEqual({ consecutiveFailures: 0, disabled: true });
    await store!.enable('ch_new');
    expect(await store!.get('ch_new')).toEqual({ consecutiveFailures: 0, disabled: false });
  });

  it('gives the same results and final state as the memory store, and keeps the disabled-channels index, for any interleaving of several clients, op by op (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary(4), { minLength: 1, maxLength: 40 }), async (ops) => {
        const stores = redisStores(4);
        const memory = createMemoryChannelStateStore();
        for (const op of ops) {
          // Each op goes through its own client's connection; the model sees the same order.
          expect(await apply(stores[op.client]!, op)).toEqual(await apply(memory, op));
        }
        const disabled: string[] = [];
        for (const channel of ['ch_a', 'ch_b']) {
          expect(await stores[0]!.get(channel)).toEqual(await memory.get(channel));
          if ((await memory.get(channel)).disabled) disabled.push(channel);
        }
        // The index metrics count with one SCARD lists exactly the disabled channels.
        const index = await clients.at(-1)!.smembers(`test:${run}:disabled-channels`);
        expect(index.sort()).toEqual(disabled);
      }),
      { numRuns: 60 },
    );
  });

  it('matches the memory store run in the order Redis executed truly concurrent clients (property)', async () => {
    // Each client runs its ops one after another on its own connection, all clients at once.
    // MONITOR gives the order Redis executed them in; the memory store replays that order and
    // must give every op the same answer and end in the same state.
    const monitorClient = connect();
    const monitor = await monitorClient.monitor();
    clients.push(monitor);
    let log: { source: string; command: string }[] = [];
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      // The warm-up call below may reach MONITOR after the log was cleared: left out.
      if (args.some((arg) => String(arg).includes('warm-up'))) return;
      log.push({ source, command: String(args[0]).toLowerCase() });
    });
    // Closed when this test ends: a MONITOR connection that outlives it would reconnect when a
    // later test restarts Redis, and ioredis throws on monitor lines it did not expect.
    onTestFinished(() => {
      monitor.disconnect();
      monitorClient.disconnect();
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(opArbitrary(1), { minLength: 1, maxLength: 12 }), {
          minLength: 2,
          maxLength: 4,
        }),
        async (programs) => {
          const prefix = `concurrent:${++run}`;
          const connections = programs.map(() => connect());
          await Promise.all(connections.map((c) => c.ping()));
          const sources = connections.map((c) => `127.0.0.1:${c.stream.localPort}`);
          const stores = connections.map((redis) =>
            createRedisChannelStateStore({ redis, prefix }),
          );
          // Loads the script into Redis, so no op is an EVALSHA refused with NOSCRIPT and sent again.
          await stores[0]!.recordAttempt('warm-up', { ok: true, failuresToDisable });
          log = [];
          const answers = await Promise.all(
            programs.map(async (ops, client) => {
              const out: unknown[] = [];
              for (const op of ops) out.push(await apply(stores[client]!, op));
              return out;
            }),
          );
          // One linearization point per op: its command, or the EXEC of its MULTI.
          const expected = programs.reduce((sum, ops) => sum + ops.length, 0);
          const order = await waitFor('MONITOR to see every op', () => {
            const points: number[] = [];
            const inMulti = new Set<string>();
            for (const { source, command } of log) {
              const client = sources.indexOf(source);
              // The disabled-channels index (SADD/SREM, then EXISTS) follows an op: not its point.
              if (client < 0 || ['ping', 'sadd', 'srem', 'exists'].includes(command)) continue;
              if (command === 'multi') inMulti.add(source);
              else if (command === 'exec') {
                inMulti.delete(source);
                points.push(client);
              } else if (!inMulti.has(source)) points.push(client);
            }
            return points.length === expected ? points : undefined;
          });
          const memory = createMemoryChannelStateStore();
          const next = programs.map(() => 0);
          for (const client of order) {
            const index = next[client]!++;
            const op = programs[client]![index]!;
            expect(answers[client]![index]).toEqual(await apply(memory, op));
          }
          for (const channel of ['ch_a', 'ch_b']) {
            expect(await stores[0]!.get(channel)).toEqual(await memory.get(channel));
          }
          for (const c of connections) c.disconnect();
        },
      ),
      { numRuns: 40 },
    );
  });

  it('counts every failure and disables exactly once when many clients race (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 2, maxLength: 6 }),
        async (failuresPerClient) => {
          const stores = redisStores(failuresPerClient.length);
          const memory = createMemoryChannelStateStore();
          // Every client records its failures, all at once.
          const perClient = async (store: ChannelStateStore, count: number) => {
            let disabledNow = 0;
            for (let i = 0; i < count; i++) {
              if ((await store.recordAttempt('ch', FAIL)).disabledNow) disabledNow++;
            }
            return disabledNow;
          };
          const real = await Promise.all(
            stores.map((store, i) => perClient(store, failuresPerClient[i]!)),
          );
          let modelDisabled = 0;
          for (const count of failuresPerClient) modelDisabled += await perClient(memory, count);
          expect(real.reduce((a, b) => a + b, 0)).toBe(modelDisabled);
          expect(await stores[0]!.get('ch')).toEqual(await memory.get('ch'));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps the disabled-channels index on the flag when clients disable and enable at once (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(opArbitrary(1), { minLength: 1, maxLength: 10 }), {
          minLength: 2,
          maxLength: 5,
        }),
        async (programs) => {
          const stores = redisStores(programs.length);
          await Promise.all(
            programs.map(async (ops, client) => {
              for (const op of ops) await apply(stores[client]!, op);
            }),
          );
          const index = await clients.at(-1)!.smembers(`test:${run}:disabled-channels`);
          const disabled: string[] = [];
          for (const channel of ['ch_a', 'ch_b']) {
            if ((await stores[0]!.get(channel)).disabled) disabled.push(channel);
          }
          expect(index.sort()).toEqual(disabled);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('never double-disables after Redis crashes and restarts (AOF on)', async () => {
    const [store] = redisStores(1);
    for (let i = 0; i < 4; i++) await store!.recordAttempt('ch_restart', FAIL);
    expect(await store!.recordAttempt('ch_restart', FAIL)).toMatchObject({ disabledNow: true });
    await server.restart();
    // The same client reconnects to the restarted server (whose script cache is empty).
    expect(await store!.get('ch_restart')).toEqual({ consecutiveFailures: 5, disabled: true });
    expect(await store!.recordAttempt('ch_restart', FAIL)).toEqual({
      consecutiveFailures: 6,
      disabled: true,
      disabledNow: false,
    });
    expect(await store!.disable('ch_restart')).toBe(false);
  });

  it('fails with redis_unavailable (not a hang) when Redis cannot be reached', async () => {
    const down = new Redis('redis://127.0.0.1:1', {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    clients.push(down);
    const store = createRedisChannelStateStore({ redis: down });
    const error = await store.recordAttempt('ch', FAIL).catch((caught: unknown) => caught);
    expect(isCspwatchRedisError(error) && error.code).toBe('redis_unavailable');
  });

  it('refuses bad options at construction', () => {
    for (const options of [
      {},
      { redis: {} },
      { redis: connect(), prefix: '' },
      { redis: connect(), prefx: 'x' },
    ]) {
      expect(() => createRedisChannelStateStore(options as never)).toThrow(
        /createRedisChannelStateStore: /,
      );
    }
  });
});
