/**
 * The replay guard's storage contract: one atomic "claim this key for ttl ms" operation and
 * its release. In-memory, Redis (`SET key 1 NX PX ttl` / `DEL key`) or any shared store fits.
 */

/**
 * Where a receiver records the deliveries it has already accepted. `claim` must be atomic:
 * of two concurrent claims of one key, exactly one resolves `true`.
 *
 * | method | Redis |
 * |---|---|
 * | `claim(key, ttlMs)` | `SET key 1 NX PX ttlMs` (true when it replied OK) |
 * | `release(key)` | `DEL key` |
 *
 * @example
 * ```ts
 * const seen = await store.claim(`cspwatch:${event.id}`, 330_000); // false: already claimed
 * ```
 */
export interface ReplayStore {
  /**
   * Claims `key` for `ttlMs` milliseconds. Resolves `true` when the key was free and is now
   * claimed, `false` when it is already claimed. Must never answer `true` for a key that is
   * still claimed; a store that cannot tell (full, unreachable) throws instead.
   */
  claim(key: string, ttlMs: number): boolean | Promise<boolean>;
  /** Frees `key`, so the next claim of it succeeds (a handler failed and wants a retry). */
  release(key: string): void | Promise<void>;
}

/** A {@link ReplayStore} that answers synchronously, for the Node sync verify path. */
export interface SyncReplayStore extends ReplayStore {
  /** Synchronous {@link ReplayStore.claim}. */
  claim(key: string, ttlMs: number): boolean;
  /** Synchronous {@link ReplayStore.release}. */
  release(key: string): void;
}
