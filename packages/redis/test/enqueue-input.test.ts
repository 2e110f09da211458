/**
 * `enqueue` refuses at the door: an alert the contract's schema does not accept, or one larger
 * than `maxAlertBytes`, is refused with `invalid_input` and nothing reaches Redis; producers
 * waiting out an outage share one wait for the connection.
 */
import { AlertSchema } from '@cspwatch/contract';
import {
  type CspwatchRedisError,
  createDeliveryQueue,
  DELIVERY_QUEUE_DEFAULTS,
  type DeliveryQueue,
  type DeliveryQueueOptions,
  isCspwatchRedisError,
} from '@cspwatch/redis/queue';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';
import { connectProducer, untilReady } from '../src/queue/connection';
import { sampleAlert } from './helpers/alerts';
import { type RedisServerHandle, startRedisServer } from './helpers/redis-server';
import { waitFor } from './helpers/wait-for';

let redis: RedisServerHandle;
let admin: Redis;
const open: { close(): Promise<void> }[] = [];
let run = 0;

beforeAll(async () => {
  redis = await startRedisServer();
  admin = new Redis(redis.url);
});
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
  await admin.flushall();
});
afterAll(async () => {
  admin?.disconnect();
  await redis?.stop();
});

/** A queue on a fresh queue name, closed after the test. */
function queueFor(options: Omit<DeliveryQueueOptions, 'connection'> = {}): DeliveryQueue {
  const queue = createDeliveryQueue({ connection: redis.url, queueName: `in${++run}`, ...options });
  open.push(queue);
  return queue;
}

/** The error `enqueue` rejects with; fails the test if it resolves. */
async function enqueueError(queue: DeliveryQueue, alert: unknown): Promise<CspwatchRedisError> {
  const outcome = await queue.enqueue('ch', alert as never).then(
    () => 'resolved',
    (error: unknown) => error,
  );
  if (!isCspwatchRedisError(outcome)) throw new Error(`expected a refusal, got ${String(outcome)}`);
  return outcome;
}

/** A valid alert whose JSON is exactly `bytes` long in UTF-8, padded with 3-byte `€` in `rule`. */
function alertOfBytes(bytes: number) {
  const alert = { ...sampleAlert(), rule: '' };
  const room = bytes - Buffer.byteLength(JSON.stringify(alert));
  return { ...alert, rule: '€'.repeat(Math.floor(room / 3)) + 'x'.repeat(room % 3) };
}

/**
 * A queue whose start is over: BullMQ writes its own `meta` key once connected, and nothing
 * else. Returns the keys Redis holds then, to compare with after a refusal.
 */
async function startedQueue(options: Omit<DeliveryQueueOptions, 'connection'> = {}) {
  const queue = queueFor(options);
  // The shard's BullMQ prefix holds a hash tag: `cspwatch:{<tag>}:in<run>:meta`.
  const [meta] = await waitFor('BullMQ to write its meta key', async () => {
    const found = await admin.keys(`cspwatch:{*}:in${run}:meta`);
    return found.length === 1 ? found : undefined;
  });
  expect(await admin.keys('*')).toEqual([meta]);
  return { queue, keysAtStart: [meta] };
}

describe('enqueue refuses an alert the schema does not accept', () => {
  it('refuses { id: "x" }, naming each missing field, and writes nothing', async () => {
    const { queue, keysAtStart } = await startedQueue();
    const error = await enqueueError(queue, { id: 'x' });
    expect(error.code).toBe('invalid_input');
    const paths = error.issues.map((issue) => issue.path);
    expect(paths).toEqual([
      'alert.id',
      'alert.eventType',
      'alert.rule',
      'alert.website',
      'alert.findings',
      'alert.findingsCount',
      'alert.window',
      'alert.dashboardUrl',
    ]);
    for (const issue of error.issues) {
      expect(issue.message).toMatch(/expected|must/); // says what to fix, not just "Invalid input"
      expect(error.message).toContain(`${issue.path}: ${issue.message}`);
    }
    expect(await admin.keys('*')).toEqual(keysAtStart);
    expect(await queue.getCounts()).toEqual({
      waiting: 0,
      active: 0,
      delayed: 0,
      failed: 0,
      parked: 0,
    });
  });

  it('names a wrong-typed nested field, an unknown field and a bad id by path', async () => {
    const { queue, keysAtStart } = await startedQueue();
    const alert = sampleAlert();
    const [finding] = alert.findings;
    const cases = [
      [{ ...alert, findings: [{ ...finding, count: '3' }] }, 'alert.findings.0.count', /number/],
      [{ ...alert, website: { ...alert.website, url: 42 } }, 'alert.website.url', /string/],
      [{ ...alert, window: { ...alert.window, end: 'yesterday' } }, 'alert.window.end', /pattern/],
      [{ ...alert, findings: [] }, 'alert.findings', />=1/],
      [{ ...alert, extra: true }, 'alert.extra', /not a known field/],
      [{ ...alert, id: 'x' }, 'alert.id', /pattern/],
      [null, 'alert', /object/],
    ] as const;
    for (const [input, path, message] of cases) {
      const error = await enqueueError(queue, input);
      expect(error.code).toBe('invalid_input');
      expect(error.issues).toEqual([
        { path, code: 'invalid', message: expect.stringMatching(message) },
      ]);
    }
    expect(await admin.keys('*')).toEqual(keysAtStart);
  });

  it('refuses before using the connection: invalid_input even when Redis is unreachable', async () => {
    const queue = createDeliveryQueue({ connection: 'redis://127.0.0.1:1', commandTimeoutMs: 500 });
    open.push(queue);
    expect((await enqueueError(queue, { id: 'x' })).code).toBe('invalid_input');
    expect((await enqueueError(queue, sampleAlert())).code).toBe('redis_unavailable');
  });

  it('reports at most 20 problems for an alert with 100 000 unknown fields, quickly', async () => {
    const { queue, keysAtStart } = await startedQueue();
    const junk = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
    const started = Date.now();
    const error = await enqueueError(queue, { ...sampleAlert(), ...junk });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.issues).toHaveLength(20);
    expect(error.issues[0]).toEqual({
      path: 'alert.k0',
      code: 'invalid',
      message: expect.any(String),
    });
    expect(await admin.keys('*')).toEqual(keysAtStart);
  });
});

describe('enqueue refuses an alert larger than maxAlertBytes', () => {
  it('refuses a 20 MiB alert, giving its size, the cap and the option, and stores nothing', async () => {
    const { queue, keysAtStart } = await startedQueue();
    const huge = { ...sampleAlert(), rule: 'x'.repeat(20 * 1024 * 1024) };
    const error = await enqueueError(queue, huge);
    const bytes = Buffer.byteLength(JSON.stringify(huge));
    expect(error.code).toBe('invalid_input');
    expect(error.issues).toEqual([
      { path: 'alert', code: 'out_of_range', message: expect.stringContaining(`${bytes}`) },
    ]);
    expect(error.message).toContain(String(DELIVERY_QUEUE_DEFAULTS.maxAlertBytes));
    expect(error.message).toContain('maxAlertBytes');
    expect(await admin.dbsize()).toBe(keysAtStart.length);
    expect(await admin.keys('*')).toEqual(keysAtStart);
  });

  it.each([
    ['the default cap (256 KiB)', undefined],
    ['maxAlertBytes: 4096', 4096],
  ])('takes an alert of exactly %s, in UTF-8 bytes, and refuses one byte more', async (_, cap) => {
    const queue = queueFor(cap === undefined ? {} : { maxAlertBytes: cap });
    const limit = cap ?? DELIVERY_QUEUE_DEFAULTS.maxAlertBytes;
    const exact = alertOfBytes(limit);
    const { jobId } = await queue.enqueue('ch', exact);
    const [jobKey] = await admin.keys(`cspwatch:{*}:in${run}:${jobId}`);
    const stored = JSON.parse((await admin.hget(jobKey ?? '', 'data')) ?? '{}');
    expect(stored.alert).toEqual(exact);
    expect(Buffer.byteLength(JSON.stringify(stored.alert))).toBe(limit);

    const over = { ...alertOfBytes(limit + 1), id: crypto.randomUUID() };
    expect(over.rule.length).toBeLessThan(limit / 2); // counted in bytes, not in characters
    const error = await enqueueError(queue, over);
    expect(error.issues).toEqual([
      {
        path: 'alert',
        code: 'out_of_range',
        message: expect.stringContaining(`is ${limit + 1} bytes`),
      },
    ]);
    expect((await queue.getCounts()).waiting).toBe(1);
  });

  it.each([1023, 16 * 1024 * 1024 + 1, 2048.5, '4096'])(
    'refuses maxAlertBytes: %j at construction',
    (maxAlertBytes) => {
      const error = (() => {
        try {
          createDeliveryQueue({ connection: redis.url, maxAlertBytes: maxAlertBytes as number });
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(isCspwatchRedisError(error) && error.code).toBe('invalid_options');
      expect(isCspwatchRedisError(error) && error.issues.map((issue) => issue.path)).toEqual([
        'maxAlertBytes',
      ]);
    },
  );
});

describe('enqueue on arbitrary input (property)', () => {
  /** Every path into the sample alert: ['website', 'url'], ['findings', 0, 'count'], … */
  function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
    if (typeof value !== 'object' || value === null) return [];
    return Object.entries(value).flatMap(([key, child]) => {
      const path = [...prefix, Array.isArray(value) ? Number(key) : key];
      return [path, ...pathsOf(child, path)];
    });
  }
  const template = sampleAlert();
  const paths = pathsOf(template);

  /** A copy of a valid alert (a fresh id) with one field replaced, removed or added. */
  const mutatedAlert = fc
    .record({
      id: fc.uuid(),
      path: fc.constantFrom(...paths),
      change: fc.constantFrom('replace', 'remove', 'add'),
      key: fc.string({ maxLength: 8 }),
      value: fc.oneof(
        fc.anything({ withBigInt: true, withDate: true, withMap: true, withNullPrototype: true }),
        fc.string(),
        fc.integer(),
        fc.uuid(),
      ),
    })
    .map(({ id, path, change, key, value }) => {
      const alert: Record<string | number, unknown> = structuredClone({ ...template, id });
      const parent = path
        .slice(0, -1)
        .reduce<Record<string | number, unknown>>(
          (node, segment) => node[segment] as Record<string | number, unknown>,
          alert,
        );
      const last = path.at(-1) as string | number;
      if (change === 'replace') parent[last] = value;
      else if (change === 'remove') delete parent[last];
      else parent[key] = value;
      return alert;
    });

  it('refuses with invalid_input exactly what AlertSchema refuses, and takes the rest', async () => {
    const queue = queueFor();
    const accepted = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          mutatedAlert,
          fc.jsonValue(),
          fc.anything({ withBigInt: true, withTypedArray: true, withSparseArray: true }),
        ),
        async (input) => {
          const outcome = await queue.enqueue('ch', input as never).then(
            () => 'accepted',
            (error: unknown) => error,
          );
          if (AlertSchema.safeParse(input).success) {
            expect(outcome).toBe('accepted');
            accepted.add((input as { id: string }).id);
          } else {
            expect(isCspwatchRedisError(outcome) && outcome.code).toBe('invalid_input');
            const issues = (outcome as CspwatchRedisError).issues;
            expect(issues.length).toBeGreaterThan(0);
            expect(issues.every((issue) => /^alert(\.|$)/.test(issue.path))).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(accepted.size).toBeGreaterThan(0); // the generator does reach valid alerts
    expect((await queue.getCounts()).waiting).toBe(accepted.size);
  });
});

describe('producers during a Redis outage', () => {
  it('20 concurrent enqueue calls each fail with redis_unavailable within commandTimeoutMs, without a listener warning', async () => {
    const down = await startRedisServer();
    const commandTimeoutMs = 500;
    const queue = createDeliveryQueue({ connection: down.url, commandTimeoutMs });
    open.push(queue, { close: () => down.stop() });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      await queue.enqueue('ch', sampleAlert());
      await down.crash();
      for (const wave of [1, 2]) {
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, async () => {
            const started = Date.now();
            const error = await queue.enqueue('ch', sampleAlert()).catch((caught) => caught);
            return { error, ms: Date.now() - started };
          }),
        );
        for (const { error, ms } of outcomes) {
          expect(isCspwatchRedisError(error) && error.code, `wave ${wave}`).toBe(
            'redis_unavailable',
          );
          expect(ms).toBeLessThan(commandTimeoutMs + 1_000); // its timeout, plus scheduling slack
        }
      }
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on next tick
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);

      await down.start();
      await waitFor('enqueue to work again', () =>
        queue.enqueue('ch', sampleAlert()).then(
          () => true,
          () => false,
        ),
      );
      const results = await Promise.all(
        Array.from({ length: 20 }, () => queue.enqueue('ch', sampleAlert())),
      );
      expect(new Set(results.map((result) => result.jobId)).size).toBe(20);
    } finally {
      process.off('warning', onWarning);
    }
  });

  // ioredis adds a `ready` listener of its own while a connect attempt is in flight, and no
  // `end` listener: the `end` count is ours exactly, the `ready` count ours plus at most one.
  it('concurrent waits share one listener, gone when they time out or Redis is back', async () => {
    const down = await startRedisServer();
    const client = connectProducer(down.url, 500);
    const listeners = () => ({
      ready: client.listenerCount('ready'),
      end: client.listenerCount('end'),
    });
    try {
      await untilReady('test', client, budget(5_000));
      const idle = listeners();
      await down.crash();
      await waitFor('the client to notice', () => client.status !== 'ready');
      const givingUp = Array.from({ length: 50 }, () =>
        untilReady('test', client, 100).catch((caught: unknown) => caught),
      );
      expect(listeners().end).toBe(idle.end + 1);
      expect(listeners().ready).toBeLessThanOrEqual(idle.ready + 2);
      for (const error of await Promise.all(givingUp)) {
        expect(isCspwatchRedisError(error) && error.code).toBe('redis_unavailable');
      }
      expect(listeners().end).toBe(idle.end); // nothing held for the calls that gave up
      expect(listeners().ready).toBeLessThanOrEqual(idle.ready + 1);
      const waits = Array.from({ length: 50 }, () =>
        untilReady('test', client, 10_000).then(() => 'ready'),
      );
      expect(listeners().end).toBe(idle.end + 1);
      expect(listeners().ready).toBeLessThanOrEqual(idle.ready + 2);
      await down.start();
      expect(await Promise.all(waits)).toEqual(Array(50).fill('ready'));
      expect(listeners()).toEqual(idle);
    } finally {
      client.disconnect();
      await down.stop();
    }
  });

  it('a shared wait ends, and its listeners go, when the client ends before it is ready', async () => {
    const client = connectProducer('redis://127.0.0.1:1', 500); // nothing listens there
    const endListeners = client.listenerCount('end');
    const waits = Array.from({ length: 5 }, () =>
      untilReady('enqueue', client, 10_000).catch((caught: unknown) => caught),
    );
    expect(client.listenerCount('end')).toBe(endListeners + 1);
    client.disconnect(); // still connecting: ioredis ends the client
    const errors = await Promise.all(waits);
    for (const error of errors) {
      expect(isCspwatchRedisError(error) && error.message).toBe('enqueue: the queue is closed');
    }
    expect(client.listenerCount('end')).toBe(endListeners);
    expect(client.listenerCount('ready')).toBe(0);
  });
});
