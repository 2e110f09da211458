/**
 * The per-channel in-flight cap, across every worker of a queue: a job takes one of its
 * channel's slots before its attempt and gives it back after. A job that finds every slot held
 * moves itself to delayed (no attempt counted) and waits in the channel's waiting room; the
 * attempt that gives a slot back promotes the oldest waiting job. A slot held by a worker that
 * died frees itself when its lease runs out, and a waiting job whose promotion was lost runs
 * when its delay (the same lease) runs out, so nothing waits for ever.
 */
import type { ChannelState } from '@cspwatch/webhook-sender';
import { DelayedError, Job } from 'bullmq';
import { createExpiryRefresh } from './expiry-refresh';
import type { QueueKeys } from './keys';
import type { ScriptedRedis } from './scripts';
import type { ShardQueues } from './shard-queues';

/** How a worker's jobs take and give back their channel's slots. */
export interface InFlightSlots {
  /**
   * Takes a slot of the job's channel and reads the channel's state in the same script (the
   * sender's read before its attempt); `null` when all slots are held.
   */
  acquire(jobId: string, channelId: string): Promise<ChannelState | null>;
  /** Moves the job to delayed until a slot frees; always throws BullMQ's `DelayedError`. */
  waitForSlot(job: Job, token: string | undefined, channelId: string): Promise<never>;
  /** Gives the slot back without recording an attempt, and promotes the next waiting job. */
  release(jobId: string, channelId: string): Promise<void>;
  /** Promotes `jobId` (popped from the waiting room), or the next one if it is gone. */
  promoteWaiting(jobId: string | null, channelId: string): Promise<void>;
}

/** Options of {@link createInFlightSlots}. */
export interface InFlightSlotOptions {
  readonly redis: ScriptedRedis;
  readonly queues: ShardQueues;
  readonly keys: QueueKeys;
  /** Slots per channel. */
  readonly cap: number;
  /** How long a slot stays held without its attempt ending (a dead worker's), ms. */
  readonly leaseMs: number;
}

/** Promotions tried per freed slot when the popped jobs are gone (run, or removed). */
const PROMOTE_TRIES = 3;

/** Creates the slot keeper of one worker. */
export function createInFlightSlots(options: InFlightSlotOptions): InFlightSlots {
  const { redis, queues, keys, cap, leaseMs } = options;
  const keyLifetime = String(leaseMs * 2);
  const setExpiry = createExpiryRefresh(leaseMs * 2);

  async function promote(jobId: string, channelId: string): Promise<boolean> {
    try {
      const job = await Job.fromId(queues.forChannel(channelId), jobId);
      await job?.promote();
      return job !== undefined;
    } catch {
      return false; // no longer delayed: it ran on its own delay, or was removed
    }
  }

  async function promoteWaiting(jobId: string | null, channelId: string): Promise<void> {
    let next = jobId;
    for (let tries = 0; next !== null && tries < PROMOTE_TRIES; tries++) {
      if (await promote(next, channelId)) return;
      const popped = (await redis.cspwatchNextWaiting(keys.waitingRoom(channelId))) as string[];
      next = popped[0] ?? null;
    }
  }

  return {
    async acquire(jobId, channelId) {
      const now = Date.now();
      const key = keys.inFlight(channelId);
      const reply = (await redis.cspwatchAcquireSlot(
        key,
        keys.failures(channelId),
        keys.disabled(channelId),
        jobId,
        String(now),
        String(now + leaseMs),
        String(cap),
        setExpiry.ttl,
        setExpiry.due(key, now) === '' ? '' : '1',
      )) as [number, string?, number?];
      if (reply[0] !== 1) return null;
      return { consecutiveFailures: Number(reply[1]), disabled: reply[2] === 1 };
    },
    async waitForSlot(job, token, channelId) {
      await job.moveToDelayed(Date.now() + leaseMs, token);
      const freed = await redis.cspwatchWaitForSlot(
        keys.inFlight(channelId),
        keys.waitingRoom(channelId),
        job.id ?? '',
        String(Date.now()),
        String(cap),
        keyLifetime,
      );
      if (freed === 1) await promote(job.id ?? '', channelId);
      throw new DelayedError();
    },
    async release(jobId, channelId) {
      const popped = (await redis.cspwatchReleaseSlot(
        keys.inFlight(channelId),
        keys.waitingRoom(channelId),
        jobId,
      )) as string[];
      await promoteWaiting(popped[0] ?? null, channelId);
    },
    promoteWaiting,
  };
}
