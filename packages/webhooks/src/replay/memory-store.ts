import { WebhookVerificationError } from '../errors';
import type { SyncReplayStore } from './replay-store';

/** Options of {@link createMemoryReplayStore}. */
export interface MemoryReplayStoreOptions {
  /**
   * Most claims held at once. A claim past it, once expired claims are dropped, is refused
   * with `replay_store_unavailable` (fail closed: a replay is never let through). An entry
   * keyed on the signature takes at most 300 bytes of heap (measured: ~260), so the default
   * bounds the store at 30 MB.
   * @default 100000
   */
  maxEntries?: number;
  /**
   * Clock in Unix milliseconds; inject one in tests.
   * @default Date.now
   */
  now?: () => number;
}

/** A {@link SyncReplayStore} kept in this process's memory, bounded by `maxEntries`. */
export interface MemoryReplayStore extends SyncReplayStore {
  /** Number of claims held now (expired ones included until they are swept). */
  readonly size: number;
}

/** Default {@link MemoryReplayStoreOptions.maxEntries}. */
export const DEFAULT_MAX_REPLAY_ENTRIES = 100_000;

/**
 * Creates the in-memory replay store: right for one process. Several instances behind a
 * load balancer need a shared store (a Redis one) so a replay sent to another instance is
 * seen too. Expired claims are swept as new ones arrive; when `maxEntries` claims are all
 * still live, `claim` throws `replay_store_unavailable` rather than forget one.
 *
 * @example
 * ```ts
 * const store = createMemoryReplayStore({ maxEntries: 50_000 });
 * app.post('/webhooks/cspwatch', cspwatchWebhook({ secret, replay: { store } }), handler);
 * ```
 */
export function createMemoryReplayStore(options: MemoryReplayStoreOptions = {}): MemoryReplayStore {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_REPLAY_ENTRIES;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new TypeError('maxEntries must be a positive integer.');
  }
  const now = options.now ?? Date.now;
  // Times are ms since the store was made: small integers V8 keeps unboxed in the Map,
  // instead of one heap number per claim for a Unix-ms value.
  const epoch = now();
  // key -> expiry, in insertion order: with one ttl, the oldest expire first.
  const expiries = new Map<string, number>();
  let fullSweepAfter = Number.NEGATIVE_INFINITY;
  let claimsSinceSweep = 0;

  /** Drops expired claims from the oldest end, stopping at the first live one. */
  const sweepOldest = (time: number, limit: number): void => {
    for (const [key, expiry] of expiries) {
      if (expiry > time || limit-- <= 0) return;
      expiries.delete(key);
    }
  };

  /** Drops every expired claim; at most once per earliest live expiry, so floods stay O(1). */
  const sweepAll = (time: number): void => {
    if (time < fullSweepAfter) return;
    let earliest = Number.POSITIVE_INFINITY;
    for (const [key, expiry] of expiries) {
      if (expiry <= time) expiries.delete(key);
      else if (expiry < earliest) earliest = expiry;
    }
    fullSweepAfter = earliest;
  };

  return {
    get size() {
      return expiries.size;
    },
    claim(key, ttlMs) {
      if (!(ttlMs > 0)) throw new TypeError('ttlMs must be a positive number of ms.');
      const time = now() - epoch;
      // Amortised: every 32nd claim drops up to 64 expired claims from the oldest end.
      if (++claimsSinceSweep === 32) {
        claimsSinceSweep = 0;
        sweepOldest(time, 64);
      }
      const expiry = expiries.get(key);
      if (expiry !== undefined) {
        if (expiry > time) return false;
        expiries.delete(key);
      }
      if (expiries.size >= maxEntries) {
        sweepOldest(time, Number.POSITIVE_INFINITY);
        if (expiries.size >= maxEntries) sweepAll(time);
        if (expiries.size >= maxEntries) throw storeFull(maxEntries);
      }
      expiries.set(key, time + ttlMs);
      return true;
    },
    release(key) {
      expiries.delete(key);
    },
  };
}

function storeFull(maxEntries: number): WebhookVerificationError {
  return new WebhookVerificationError(
    'replay_store_unavailable',
    `The replay store holds ${maxEntries} live claims (its maxEntries), so this delivery was ` +
      'refused rather than accepted unchecked. The sender retries later; raise maxEntries or ' +
      'use a shared store if this is real traffic.',
  );
}
