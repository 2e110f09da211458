/**
 * A redis-server of one test file's own, and a client of it with the queue's scripts defined:
 * started before the file's tests, stopped after them.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { defineQueueScripts, type ScriptedRedis } from '../../src/queue/scripts';
import { type RedisServerHandle, startRedisServer } from './redis-server';

/** What {@link useScriptedRedis} gives: read its fields inside tests (they are set before all). */
export interface ScriptedRedisBed {
  readonly server: RedisServerHandle;
  readonly redis: ScriptedRedis;
}

/** Registers the file's hooks; the returned bed is filled before its first test. */
export function useScriptedRedis(): ScriptedRedisBed {
  const bed = {} as { server: RedisServerHandle; redis: ScriptedRedis };
  beforeAll(async () => {
    bed.server = await startRedisServer();
    // No retry limit per command: as the worker's own connection.
    bed.redis = defineQueueScripts(new Redis(bed.server.url, { maxRetriesPerRequest: null }));
  });
  afterAll(async () => {
    bed.redis?.disconnect();
    await bed.server?.stop();
  });
  return bed;
}
