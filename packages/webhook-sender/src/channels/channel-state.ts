/**
 * The failure counter and enabled flag of each channel (spec section 3), behind a small store
 * interface whose operations map one-to-one onto atomic Redis commands, so several sender
 * processes can share one store.
 */

/** Consecutive failures that disable a channel (spec section 8). */
export const FAILURES_BEFORE_DISABLE = 5;

/** The delivery state of one channel. */
export interface ChannelState {
  /** Failures since the last success or re-enable. */
  readonly consecutiveFailures: number;
  /** `true` once the channel disabled itself; nothing is sent until it is re-enabled. */
  readonly disabled: boolean;
}

/**
 * Where channel state lives. Every method must be atomic on its own; the sender never does a
 * read-modify-write across two calls. `createRedisChannelStateStore` from `@cspwatch/redis`
 * implements it on Redis (keys `f:<id>` failures, `d:<id>` flag here for short):
 *
 * | method | Redis |
 * |---|---|
 * | `get` | `MGET f:<id> d:<id>` |
 * | `recordFailure` | `INCR f:<id>` (returns the new count) |
 * | `recordSuccess` | `SET f:<id> 0` |
 * | `disable` | `SET d:<id> <token> NX GET` (true when it set the flag, or the flag holds this call's token, so a re-sent command still counts once) |
 * | `enable` | `MULTI; DEL d:<id>; SET f:<id> 0; EXEC` |
 *
 * @example
 * ```ts
 * const sender = createWebhookSender({ store: createMemoryChannelStateStore() });
 * ```
 */
export interface ChannelStateStore {
  /** Reads the state; an unknown channel is enabled with 0 failures. */
  get(channelId: string): Promise<ChannelState>;
  /** Adds one failure atomically and returns the new count (like `INCR`). */
  recordFailure(channelId: string): Promise<number>;
  /** Resets the failure count to 0 (does not re-enable a disabled channel). */
  recordSuccess(channelId: string): Promise<void>;
  /** Disables the channel; resolves `true` only for the call that changed it (like `SET NX`). */
  disable(channelId: string): Promise<boolean>;
  /** Re-enables the channel and resets its failure count, in one atomic step. */
  enable(channelId: string): Promise<void>;
}

/**
 * An in-memory {@link ChannelStateStore} for one process. Each operation runs synchronously
 * inside its promise, so concurrent deliveries in the process count correctly.
 *
 * @example
 * ```ts
 * const store = createMemoryChannelStateStore();
 * await store.recordFailure('ch_1'); // 1
 * ```
 */
export function createMemoryChannelStateStore(): ChannelStateStore {
  const failures = new Map<string, number>();
  const disabled = new Set<string>();
  return {
    async get(channelId) {
      return {
        consecutiveFailures: failures.get(channelId) ?? 0,
        disabled: disabled.has(channelId),
      };
    },
    async recordFailure(channelId) {
      const count = (failures.get(channelId) ?? 0) + 1;
      failures.set(channelId, count);
      return count;
    },
    async recordSuccess(channelId) {
      failures.set(channelId, 0);
    },
    async disable(channelId) {
      if (disabled.has(channelId)) return false;
      disabled.add(channelId);
      return true;
    },
    async enable(channelId) {
      disabled.delete(channelId);
      failures.set(channelId, 0);
    },
  };
}
