/**
 * The IPC messages between the Redis queue bench and its worker processes
 * (src/redis-worker-child.ts): one home for both sides.
 */

/**
 * What a worker process runs:
 * - `ours`: `createDeliveryWorker` from `@cspwatch/redis/queue`;
 * - `plain`: a BullMQ `Worker` whose processor only calls `sender.deliver` (memory store);
 * - `floor`: a BullMQ `Worker` with an empty processor.
 */
export type WorkerKind = 'ours' | 'plain' | 'floor';

/** A webhook channel as the worker looks it up (the same shape as the sender's). */
export interface BenchChannel {
  readonly id: string;
  readonly url: string;
  readonly secret: string;
}

/** A node of a Redis Cluster, as a seed of the cluster client. */
export interface ClusterSeed {
  readonly host: string;
  readonly port: number;
}

/**
 * Where Redis is: a `redis://host:port` URL, or a Redis Cluster's seed nodes (the `connection`
 * our queue and worker take; kinds `plain` and `floor` take a URL only).
 */
export type BenchConnection = string | { readonly cluster: readonly ClusterSeed[] };

/** Starts a worker of `kind` on a queue (one at a time per process). */
export interface StartRequest {
  readonly type: 'start';
  readonly kind: WorkerKind;
  readonly connection: BenchConnection;
  readonly queueName: string;
  readonly prefix: string;
  /** Our queue's `shards` (kind `ours`); its default when absent. */
  readonly shards?: number;
  readonly concurrency: number;
  readonly channels: readonly BenchChannel[];
  /** The sender's `timeoutMs`; the sender's default when absent. */
  readonly senderTimeoutMs?: number;
  /** Passed to `createDeliveryWorker` (kind `ours`) when present. */
  readonly maxInFlightPerChannel?: number;
  /** Kind `floor`: the empty processor waits this long, ms (the floor at another pace). */
  readonly processorWaitMs?: number;
  /**
   * Kind `ours`: the file to take `createDeliveryWorker` from instead of
   * `@cspwatch/redis/queue` (the build without tracing, src/uninstrumented-build.ts).
   */
  readonly module?: string;
}

/** A request from the bench; each is answered once with a {@link WorkerReply} of the same `id`. */
export type WorkerRequest =
  | (StartRequest & { readonly id: number })
  | { readonly id: number; readonly type: 'stop' }
  | { readonly id: number; readonly type: 'cpu' };

/** The answer to a request. */
export type WorkerReply =
  | {
      readonly id: number;
      readonly ok: true;
      /** User + system CPU time of the process so far, µs (every request answers it). */
      readonly cpuMicros: number;
      /** Jobs the BullMQ worker completed since `start` (kinds `plain` and `floor`). */
      readonly completed: number;
    }
  | {
      readonly id: number;
      readonly ok: false;
      readonly message: string;
      /** The error's `code` (e.g. `invalid_options`), when it has one. */
      readonly code?: string;
      /** The error's `issues` (`{ path, message }`), when it has them. */
      readonly issues?: readonly { readonly path: string; readonly message: string }[];
    };
