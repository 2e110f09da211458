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
  readonly connected: { readonly jobs: boolean; readonly state: boolean };
  /** When an attempt of this worker last got a 2xx (ISO 8601), or `null` since it started. */
  readonly lastSuccessAt: string | null;
  /** Jobs this worker is running now. */
  readonly inFlight: number;
  /** The queue's shards, and how many of them this worker is taking jobs from. */
  readonly shards: { readonly total: number; readonly running: number };
}
