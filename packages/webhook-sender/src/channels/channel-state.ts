/**
 * The failure counter and enabled flag of each channel, behind a small store interface. The
 * channel rule (five consecutive failed attempts disable a channel, exactly one caller sees
 * `disabledNow`, a success resets the count) is applied by one atomic step, `recordAttempt`,
 * so several sender processes can share one store.
 */

import type { AttemptReport } from '../delivery/attempt-report';

/** Consecutive failed attempts that disable a channel (docs/webhook-sender-reference.md, "Failure counting and auto-disable"). */
export const FAILURES_BEFORE_DISABLE = 5;

/** The delivery state of one channel. */
export interface ChannelState {
  /** Failures since the last success or re-enable. */
  readonly consecutiveFailures: number;
  /** `true` once the channel disabled itself; nothing is sent until it is re-enabled. */
  readonly disabled: boolean;
}

/** What one delivery attempt did, as the sender hands it to {@link ChannelStateStore.recordAttempt}. */
export interface ChannelAttempt {
  /** `true` when the endpoint answered 2xx. */
  readonly ok: boolean;
  /** Consecutive failures at which the channel disables itself (the sender passes {@link FAILURES_BEFORE_DISABLE}). */
  readonly failuresToDisable: number;
  /**
   * What the attempt was (its result but for the channel's state). The sender always passes
   * it; a store may ignore it, or keep a record of the attempt in the same atomic step as its
   * count (the `@cspwatch/redis` delivery worker writes its history so).
   */
  readonly delivery?: AttemptReport;
}

/** The channel's state after one recorded attempt. */
export interface RecordedAttempt extends ChannelState {
  /** `true` for exactly one attempt: the failure that disabled the channel. */
  readonly disabledNow: boolean;
}

/**
 * Where channel state lives. Every method is atomic on its own; the sender never does a
 * read-modify-write across two calls. `createRedisChannelStateStore` from `@cspwatch/redis`
 * implements it on Redis:
 *
 * | method | Redis |
 * |---|---|
 * | `get` | `MGET` of the count and the flag |
 * | `recordAttempt` | one script: a success sets the count to 0; a failure increments it and, at `failuresToDisable`, sets the flag with `NX` (that caller alone gets `disabledNow`) |
 * | `disable` | `SET flag <token> NX GET` |
 * | `enable` | `MULTI; DEL flag; SET count 0; EXEC` |
 *
 * @example
 * ```ts
 * const sender = createWebhookSender({ store: createMemoryChannelStateStore() });
 * ```
 */
export interface ChannelStateStore {
  /** Reads the state; an unknown channel is enabled with 0 failures. */
  get(channelId: string): Promise<ChannelState>;
  /**
   * Counts one attempt, atomically: a success resets the count to 0 (a disabled channel stays
   * disabled); a failure adds one, and the failure that reaches `failuresToDisable` on an
   * enabled channel disables it and is the only one answered `disabledNow: true`.
   */
  recordAttempt(channelId: string, attempt: ChannelAttempt): Promise<RecordedAttempt>;
  /** Disables the channel by hand; resolves `true` only for the call that changed it. */
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
 * await store.recordAttempt('ch_1', { ok: false, failuresToDisable: 5 }); // { consecutiveFailures: 1, ... }
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
    async recordAttempt(channelId, { ok, failuresToDisable }) {
      const count = ok ? 0 : (failures.get(channelId) ?? 0) + 1;
      failures.set(channelId, count);
      const disabledNow = !ok && count >= failuresToDisable && !disabled.has(channelId);
      if (disabledNow) disabled.add(channelId);
      return { consecutiveFailures: count, disabled: disabled.has(channelId), disabledNow };
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
