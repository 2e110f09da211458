import { describe, expect, it } from 'vitest';
import { useScriptedRedis } from '../../test/helpers/scripted-redis';
import { endAttemptOnOneNode, type UncountedEntry } from './attempt-end';
import { readAlertHistory, readHistory } from './history';
import { queueKeys } from './keys';

const own = useScriptedRedis();

const retention = { maxEntries: 100, maxAgeMs: 60_000 };

/** A failed attempt's entry, on a channel and alert of their own. */
function failedEntry(name: string): UncountedEntry {
  return {
    kind: 'attempt',
    alertId: `alert-${name}`,
    channelId: `channel-${name}`,
    attempt: 1,
    at: new Date().toISOString(),
    durationMs: 12,
    ok: false,
    status: 500,
    cause: 'http_status',
    location: null,
    error: null,
    responseExcerpt: 'no',
  };
}

const failure = { ok: false, failuresToDisable: 1 };

describe('the end of an attempt on one redis-server', () => {
  it('counts, records and gives the slot back once, however often the script is sent', async () => {
    const keys = queueKeys('end', `once-${Date.now()}`);
    const entry = failedEntry('resent');
    const slot = `${Date.now() + 60_000}:job-1`;
    await own.redis.rpush(keys.inFlight(entry.channelId), slot, '~');
    await own.redis.zadd(keys.waitingRoom(entry.channelId), 1, 'waiting-job');
    // The same script twice, as ioredis re-sends it after a reconnect lost its reply.
    const sent: unknown[][] = [];
    const original = own.redis.cspwatchEndAttemptOneNode.bind(own.redis);
    own.redis.cspwatchEndAttemptOneNode = (...args: string[]) => {
      sent.push(args);
      return original(...args);
    };
    const count = { counted: true, attempt: failure } as const;
    const first = await endAttemptOnOneNode(own.redis, keys, retention, entry, slot, count);
    own.redis.cspwatchEndAttemptOneNode = original;
    const again = (await original(...(sent[0] as string[]))) as unknown[];

    expect(first.recorded).toEqual({ consecutiveFailures: 1, disabled: true, disabledNow: true });
    expect(first.next).toBe('waiting-job');
    // The re-sent script answers what the first run did (the one disable included), writes nothing.
    expect(again).toEqual([1, 1, 1, '']);
    expect(await own.redis.get(keys.failures(entry.channelId))).toBe('1');
    expect(await own.redis.lrange(keys.inFlight(entry.channelId), 0, -1)).toEqual(['~']);
    const channel = await readHistory(own.redis, keys.history(entry.channelId), {}, retention);
    const alert = await readAlertHistory(own.redis, keys, entry.alertId, retention);
    const { id: _, ...recorded } = alert[0] ?? { id: '' };
    expect(channel.entries).toHaveLength(1);
    expect(alert).toHaveLength(1);
    expect(recorded).toEqual({ ...entry, consecutiveFailures: 1, disabledNow: true });
    expect(channel.entries[0]).toMatchObject(recorded);
  });

  it('still counts and records an attempt whose slot was taken back (its lease ran out)', async () => {
    const keys = queueKeys('end', `lease-${Date.now()}`);
    const entry = failedEntry('lease');
    const count = { counted: true, attempt: { ...failure, failuresToDisable: 5 } } as const;
    const ended = await endAttemptOnOneNode(own.redis, keys, retention, entry, '1:gone', count);
    expect(ended.recorded).toEqual({ consecutiveFailures: 1, disabled: false, disabledNow: false });
    expect(ended.next).toBeNull();
    expect(await readAlertHistory(own.redis, keys, entry.alertId, retention)).toHaveLength(1);
  });

  it("appends an alert's later entries to its log, oldest first", async () => {
    const keys = queueKeys('end', `log-${Date.now()}`);
    const entry = failedEntry('log');
    const count = { counted: true, attempt: { ...failure, failuresToDisable: 5 } } as const;
    await endAttemptOnOneNode(own.redis, keys, retention, entry, '1:a', count);
    await endAttemptOnOneNode(own.redis, keys, retention, { ...entry, attempt: 2 }, '1:b', count);
    const alert = await readAlertHistory(own.redis, keys, entry.alertId, retention);
    expect(alert.map((e) => [e.attempt, e.kind === 'attempt' && e.consecutiveFailures])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(await own.redis.pttl(keys.alertHistory(entry.alertId))).toBeGreaterThan(50_000);
  });
});
