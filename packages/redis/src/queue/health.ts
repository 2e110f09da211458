/**
 * What a worker reports of its health (`worker.health()`); `@cspwatch/redis/health` serves it.
 */

/** What `worker.health()` answers. */
export interface DeliveryWorkerHealth {
  /** `true` when both connections are ready, every shard is taken and the worker is not closing. */
  readonly ok: boolean;
  /** `true` once `close()` began. */
  readonly closing: boolean;
  /** Per Redis connection: `jobs` (BullMQ's) and `state` (channel state, slots, history, parking). */
  readonly connected: {
    /** BullMQ's connection (jobs). */
    readonly jobs: boolean;
    /** The worker's own connection (channel state, slots, history, parking). */
    readonly state: boolean;
  };
  /** When an attempt of this worker last got a 2xx (ISO 8601), or `null` since it started. */
  readonly lastSuccessAt: string | null;
  /** Jobs this worker is running now. */
  readonly inFlight: number;
  /** The queue's shards, and how many of them this worker is taking jobs from. */
  readonly shards: {
    /** The queue's shard count. */
    readonly total: number;
    /** Shards this worker is taking jobs from now. */
    readonly running: number;
  };
}
