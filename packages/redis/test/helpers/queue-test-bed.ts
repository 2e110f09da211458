/**
 * The set-up the queue tests share: one private redis-server and one mock service per test
 * file (the mock's webhook inbox is the receiver: it verifies each delivery with the channel's
 * secret), and a list of things to close after each test.
 */
import { type MockServer, startMockServer } from '@cspwatch/mock-server';
import type { DeliveryQueue } from '@cspwatch/redis/queue';
import type { DeliveryChannel } from '@cspwatch/webhook-sender';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type RedisServerHandle, startRedisServer } from './redis-server';

/** Anything a test opens and the bed closes: a queue, a worker, a server. */
export interface Closable {
  close(): Promise<void>;
}

/** What {@link queueTestBed} gives a test file. */
export interface QueueTestBed {
  /** The file's private Redis (started before the first test). */
  readonly redis: RedisServerHandle;
  /** The file's mock service, whose inbox receives the deliveries. */
  readonly mock: MockServer;
  /** Every channel `inboxChannel` made, and any a test adds, by id. */
  readonly channels: Map<string, DeliveryChannel>;
  /** A worker's `channels` lookup over {@link QueueTestBed.channels}. */
  readonly lookup: (id: string) => DeliveryChannel | undefined;
  /** A new inbox channel signed with the bed's secret that answers `status`; registered in `channels`. */
  inboxChannel(status?: number): DeliveryChannel;
  /** Closes `items` after the current test, the last one given first. */
  closeAfterTest(...items: Closable[]): void;
  /** Closes now what `closeAfterTest` holds, the last one given first. */
  closeAll(): Promise<void>;
  /** A name no other call in this file got: `prefix` and a counter (queue names, channel ids). */
  uniqueName(prefix: string): string;
}

/**
 * Registers the file's hooks (start Redis and the mock before all tests, close what a test
 * opened after each, stop both after all) and returns the bed. Call it once, at the top level
 * of a test file; `secret` signs every inbox channel.
 */
export function queueTestBed(secret: string): QueueTestBed {
  let redis: RedisServerHandle | undefined;
  let mock: MockServer | undefined;
  const channels = new Map<string, DeliveryChannel>();
  const open: Closable[] = [];
  let names = 0;

  beforeAll(async () => {
    [redis, mock] = await Promise.all([startRedisServer(), startMockServer()]);
  });
  afterEach(() => bed.closeAll());
  afterAll(async () => {
    await mock?.close();
    await redis?.stop();
  });

  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the queue test bed's ${what} is not started yet`);
    return value;
  };
  const bed: QueueTestBed = {
    get redis() {
      return started(redis, 'redis-server');
    },
    get mock() {
      return started(mock, 'mock service');
    },
    channels,
    lookup: (id) => channels.get(id),
    inboxChannel(status = 200) {
      const created = bed.mock.service.inbox.createChannel({ secret, response: { status } });
      const channel = { id: created.id, url: created.url, secret };
      channels.set(channel.id, channel);
      return channel;
    },
    closeAfterTest(...items) {
      open.push(...items);
    },
    async closeAll() {
      for (const item of open.splice(0).reverse()) await item.close();
    },
    uniqueName: (prefix) => `${prefix}${++names}`,
  };
  return bed;
}

/** Whether the queue has nothing left to run: no job waiting, active or delayed. */
export async function queueDrained(queue: DeliveryQueue): Promise<boolean> {
  const counts = await queue.getCounts();
  return counts.waiting + counts.active + counts.delayed === 0;
}
