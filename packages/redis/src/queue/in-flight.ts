/**
 * The per-channel in-flight cap, across every worker of a queue: a job takes one of its
 * channel's slots before its attempt and gives it back after. A channel's slots are a list of
 * `<lease end ms>:<job id>` with one `~` at its tail, which keeps the list (and its expiry)
 * while slots come and go: taking a slot is one `LPUSHX` whose answer is the count, sent with
 * the sender's read of the channel state; a take over the cap takes its entry out again, and
 * only a take that finds no list runs a script. A job that finds every slot held moves itself
 * to delayed (no attempt counted) and waits in the channel's waiting room; the attempt that
 * gives a slot back promotes the oldest waiting job (or, once the channel is disabled, the
 * worker parks the waiting jobs: waiting-room-parking.ts). A slot held by a worker that died is
 * taken back by the first job that finds the slots full once its lease has run out, and a
 * waiting job whose promotion was lost runs when its delay (the same lease) runs out, so
 * nothing waits for ever.
 */
import type { ChannelState } from '@cspwatch/webhook-sender';
import { DelayedError, Job } from 'bullmq';
import { createExpiryRefresh } from './expiry-refresh';
import type { QueueKeys } from './keys';
import type { ScriptedRedis } from './scripts';
import type { ShardQueues } from './shard-queues';

/** A slot a job holds, and the channel state read with it. */
export interface HeldSlot {
  /** The slot's entry in the channel's list (what gives it back). */
  readonly slot: string;
  /** The channel's state when the slot was taken (the sender's read before its attempt). */
  readonly state: ChannelState;
}

/** A take that did not fit: the slot pushed over the cap is being taken out again. */
export interface FullSlots {
  /** Settles once the slot pushed over the cap is out of the list again. */
  readonly undone: Promise<unknown>;
}

/** How a worker's jobs take and give back their channel's slots. */
export interface InFlightSlots {
  /** Takes a slot of the job's channel and reads the channel's state; {@link FullSlots} when all are held. */
  acquire(jobId: string, channelId: string): Promise<HeldSlot | FullSlots>;
  /**
   * Moves the job to delayed until a slot frees (after `full` is undone, so that the room's
   * check sees the slots without it); always throws BullMQ's `DelayedError`.
   */
  waitForSlot(
    job: Job,
    token: string | undefined,
    channelId: string,
    full: FullSlots,
  ): Promise<never>;
  /** Gives the slot back without recording an attempt, and promotes the next waiting job. */
  release(slot: string, channelId: string): Promise<void>;
  /** Gives the slot back without recording an attempt and without promoting anyone. */
  giveBack(slot: string, channelId: string): Promise<void>;
  /** Takes up to `count` of the channel's waiting jobs out of its waiting room, oldest first. */
  takeWaiting(channelId: string, count: number): Promise<string[]>;
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
      next = (await redis.zpopmin(keys.waitingRoom(channelId)))[0] ?? null;
    }
  }

  // Every copy: a take whose reply was lost is sent again by ioredis, and pushes it twice.
  async function giveBack(slot: string, channelId: string): Promise<void> {
    await redis.lrem(keys.inFlight(channelId), 0, slot);
  }

  return {
    async acquire(jobId, channelId) {
      const now = Date.now();
      const key = keys.inFlight(channelId);
      const slot = `${now + leaseMs}:${jobId}`;
      // Sent together (one write on the auto-pipelined connection): the take and the state read.
      const [length, [failures, disabled]] = await Promise.all([
        redis.lpushx(key, slot),
        redis.mget(keys.failures(channelId), keys.disabled(channelId)),
      ]);
      const state = { consecutiveFailures: Number(failures ?? 0), disabled: disabled !== null };
      if (length > 0) {
        // The list's expiry, now and then (see expiry-refresh.ts); nothing waits for it.
        const refresh = setExpiry.due(key, now);
        if (refresh !== '') redis.pexpire(key, refresh).catch(() => {});
      }
      // The list holds the '~' besides the slots: within the cap when length - 1 <= cap.
      if (length > 0 && length - 1 <= cap) return { slot, state };
      // Over the cap: out again at once, with no wait (the waiting room's script, which runs
      // next, takes back slots whose lease ran out). No list: the script creates it.
      if (length > 0) return { undone: giveBack(slot, channelId) };
      const created = await redis.cspwatchCreateSlots(key, slot, String(cap), setExpiry.ttl);
      setExpiry.due(key, now); // it has its expiry: the next refresh is an interval away
      return created === 1 ? { slot, state } : { undone: Promise.resolve() };
    },
    async waitForSlot(job, token, channelId, full) {
      await Promise.all([job.moveToDelayed(Date.now() + leaseMs, token), full.undone]);
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
    async release(slot, channelId) {
      const [, popped] = await Promise.all([
        giveBack(slot, channelId),
        redis.zpopmin(keys.waitingRoom(channelId)),
      ]);
      await promoteWaiting(popped[0] ?? null, channelId);
    },
    giveBack,
    async takeWaiting(channelId, count) {
      const popped = await redis.zpopmin(keys.waitingRoom(channelId), count);
      return popped.filter((_, index) => index % 2 === 0); // [member, score, member, score, …]
    },
    promoteWaiting,
  };
}
