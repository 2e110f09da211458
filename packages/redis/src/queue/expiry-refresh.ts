/**
 * Amortised expiry of long-lived keys written on every delivery (a channel's history stream, its
 * in-flight set): instead of a `PEXPIRE` on each write, this process refreshes a key's expiry at
 * most once per interval, to its lifetime plus that interval, so each write is still followed
 * by at least its lifetime. The script that creates a key gives it `ttl` at once.
 */

/** Keys remembered at most; past it the memory starts again (the next writes refresh). */
const MAX_KEYS = 10_000;

/** Longest interval between two refreshes of one key, ms. */
const MAX_INTERVAL_MS = 60_000;

/** When this process refreshes the expiry of keys that live a given time after their last write. */
export interface ExpiryRefresh {
  /** The expiry to set, ms as a string: the lifetime plus the interval. */
  readonly ttl: string;
  /** For a key about to be written at `now`: {@link ExpiryRefresh.ttl} when due, else `''`. */
  due(key: string, now: number): string;
}

/**
 * Creates the refresher of keys that must live `lifetimeMs` after their last write: the
 * interval is 1/16 of the lifetime, at most a minute.
 */
export function createExpiryRefresh(lifetimeMs: number): ExpiryRefresh {
  const intervalMs = Math.max(1, Math.min(MAX_INTERVAL_MS, Math.floor(lifetimeMs / 16)));
  const ttl = String(lifetimeMs + intervalMs);
  const lastSet = new Map<string, number>();
  return {
    ttl,
    due(key, now) {
      const last = lastSet.get(key);
      if (last !== undefined && now - last < intervalMs) return '';
      if (lastSet.size >= MAX_KEYS) lastSet.clear();
      lastSet.set(key, now);
      return ttl;
    },
  };
}
