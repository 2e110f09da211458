/**
 * Parking a disabled channel's waiting room: the jobs waiting for one of its in-flight slots
 * are parked a batch at a time, rather than promoted one by one to find the channel disabled.
 * Each job is held first (its delay pushed `holdMs` on, which BullMQ allows only while it is
 * still delayed), so it cannot start while it is parked: a job whose delay ran out before is
 * left to the worker that has it (which parks or delivers it), and a re-enable with a release
 * of the parked alerts meanwhile cannot deliver it twice. Each is parked before it leaves
 * BullMQ: a crash in between leaves it delayed, to be parked when its hold runs out (parking is
 * keyed by job id, so twice is once).
 */
import { Job } from 'bullmq';
import type { InFlightSlots } from './in-flight';
import { DELIVER_JOB, type DeliveryJobData } from './jobs';
import type { ShardQueues } from './shard-queues';

/** Jobs of a disabled channel's waiting room taken out at once. */
const PARK_BATCH = 100;

/** Options of {@link createWaitingRoomParking}. */
export interface WaitingRoomParkingOptions {
  readonly queues: ShardQueues;
  readonly slots: InFlightSlots;
  /** How long a job stays held while it is parked (a crashed parker's job runs after it), ms. */
  readonly holdMs: number;
  /** Parks the job's alert while its channel is disabled; `false` when it was re-enabled. */
  readonly park: (job: Job<DeliveryJobData>) => Promise<boolean>;
}

/** Creates the parking of disabled channels' waiting rooms of one worker. */
export function createWaitingRoomParking(options: WaitingRoomParkingOptions) {
  const { queues, slots, holdMs, park } = options;

  /** Parks one job of a disabled channel's waiting room; runs it now if the channel was re-enabled. */
  async function parkWaitingJob(channelId: string, jobId: string): Promise<void> {
    const job = await Job.fromId<DeliveryJobData>(queues.forChannel(channelId), jobId);
    if (!job || job.name !== DELIVER_JOB) return; // it ran on its own delay, or was removed
    try {
      await job.changeDelay(holdMs);
    } catch {
      return; // no longer delayed: its delay ran out, and the worker that took it has it
    }
    const parked = await park(job);
    await (parked ? job.remove() : job.promote()).catch(() => {});
  }

  /**
   * Parks the waiting room of a channel that is now disabled; `first` is a job already taken
   * out of it. One job at a time: the healthy channels' jobs keep the rest of the worker.
   */
  async function parkWaitingRoom(channelId: string, first: string | null): Promise<void> {
    if (first !== null) await parkWaitingJob(channelId, first);
    for (;;) {
      const taken = await slots.takeWaiting(channelId, PARK_BATCH);
      for (const id of taken) await parkWaitingJob(channelId, id);
      if (taken.length < PARK_BATCH) return;
    }
  }

  return { parkWaitingRoom };
}
