import {
  checkFunction,
  checkInteger,
  checkUnknownKeys,
  describeValue,
  type Issue,
  issue,
} from '@cspwatch/internal';
import { invalidOptions, WebhookVerificationError } from '../errors';
import type { SyncReplayStore } from './replay-store';

/** Options of {@link createMemoryReplayStore}. */
export interface MemoryReplayStoreOptions {
  /**
   * Most claims held at once. A new claim finding this many live, once expired claims are
   * dropped, is refused with `replay_store_unavailable` (fail closed: a replay is never let
   * through). Near the bound the store drops expired claims once every `maxEntries / 16` new
   * ones, so it may hold up to that many more in between, or refuse while up to that many
   * fewer are live. It takes 16 bytes a slot and at most twice as many slots as `maxEntries`
   * (rounded up to a power of two): 4 MiB at the default, whatever the keys' length (and the
   * half-size table it grows from, for a moment).
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
 * seen too. Expired claims are swept as the table grows; when `maxEntries` claims are all
 * still live, `claim` throws `replay_store_unavailable` rather than forget one. A claim costs
 * O(1) on average however the traffic runs, at the bound too (sweeps come in steps: see
 * `maxEntries`).
 *
 * Each claim is kept as a 64-bit hash of its key (seeded at random per store) and its expiry,
 * in typed arrays: no string is kept, so the garbage collector never copies or scans claims,
 * and memory does not grow with the keys' length. A replay hashes the same and is always
 * refused. Two different keys share a hash with odds of about `maxEntries` in 2^64 per claim
 * (1 in 10^14 at the default); the newer delivery is then refused as a replay, never accepted.
 *
 * @example
 * ```ts
 * const store = createMemoryReplayStore({ maxEntries: 50_000 });
 * app.post('/webhooks/cspwatch', cspwatchWebhook({ secret, replay: { store } }), handler);
 * ```
 */
export function createMemoryReplayStore(options: MemoryReplayStoreOptions = {}): MemoryReplayStore {
  if (typeof options !== 'object' || options === null) {
    throw invalidOptions(
      issue(
        '(options)',
        'not_an_object',
        `must be an options object or nothing, got ${describeValue(options)}`,
      ),
    );
  }
  const issues: Issue[] = [];
  checkUnknownKeys(issues, options, ['maxEntries', 'now']);
  checkInteger(issues, 'maxEntries', options.maxEntries, { min: 1, max: 2 ** 26 });
  checkFunction(issues, 'now', options.now);
  if (issues.length > 0) throw invalidOptions(...issues);
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_REPLAY_ENTRIES;
  const now = options.now ?? Date.now;
  const maxSlots = 2 ** Math.ceil(Math.log2(2 * maxEntries));
  // Near the bound, a sweep is followed by `step` new claims before the next: O(1) a claim.
  const step = Math.max(1, Math.floor(maxEntries / 16));
  const seeds = [randomInt32(), randomInt32()] as const;
  // Slot i: its key's hash in words[4i] (never 0 in a used slot) and words[4i + 1], its
  // expiry in expiries[2i + 1]. One buffer: one cache line a probe.
  let words = new Int32Array(0);
  let expiries = new Float64Array(0);
  let mask = -1; // slots - 1
  let used = 0;
  // A new claim finding this many held sweeps (or grows) the table first.
  let sweepAt = maxEntries;
  // After a sweep that found the store full: refused without another sweep before this time.
  let fullUntil = Number.NEGATIVE_INFINITY;
  let high = 0;
  let low = 0;

  /** Sets `high` and `low` to the two 32-bit halves of `key`'s hash. */
  const hash = (key: string): void => {
    let a = seeds[0];
    let b = seeds[1];
    for (let index = 0; index < key.length; index++) {
      const code = key.charCodeAt(index);
      a = Math.imul(a ^ code, 0x9e3779b1);
      b = Math.imul(b ^ code, 0x5bd1e995);
    }
    high = mix(a) || 1; // 0 marks an empty slot
    low = mix(b);
  };

  /** The slot holding the hash in `high`/`low`, or the empty slot where it belongs. */
  const find = (): number => {
    let slot = high & mask;
    while (words[4 * slot] !== 0 && (words[4 * slot] !== high || words[4 * slot + 1] !== low)) {
      slot = (slot + 1) & mask;
    }
    return slot;
  };

  /** Stores the hash in `high`/`low` with its expiry in `slot`. */
  const put = (slot: number, expiry: number): void => {
    words[4 * slot] = high;
    words[4 * slot + 1] = low;
    expiries[2 * slot + 1] = expiry;
  };

  /**
   * Empties `slot`, moving back each later claim of its run that may sit there, so no probe
   * from a claim's home slot meets an empty slot before the claim (Knuth's Algorithm R).
   */
  const remove = (slot: number): void => {
    let hole = slot;
    for (let next = (hole + 1) & mask; words[4 * next] !== 0; next = (next + 1) & mask) {
      const home = words[4 * next]! & mask;
      if (((next - home) & mask) < ((next - hole) & mask)) continue; // home after the hole
      words[4 * hole] = words[4 * next]!;
      words[4 * hole + 1] = words[4 * next + 1]!;
      expiries[2 * hole + 1] = expiries[2 * next + 1]!;
      hole = next;
    }
    words[4 * hole] = 0;
    used--;
  };

  /** Drops the claims expired at `time`, in place. */
  const dropExpired = (time: number): void => {
    for (let slot = 0; slot <= mask; ) {
      if (words[4 * slot] !== 0 && !(expiries[2 * slot + 1]! > time)) remove(slot);
      else slot++; // a removal may have moved a claim into this slot: look at it again
    }
  };

  /** Copies the claims live at `time` into a new table of `slots` slots (keeps `high`/`low`). */
  const copyLive = (time: number, slots: number): void => {
    const [oldWords, oldExpiries, keptHigh, keptLow] = [words, expiries, high, low];
    const buffer = new ArrayBuffer(16 * slots);
    [words, expiries, mask, used] = [
      new Int32Array(buffer),
      new Float64Array(buffer),
      slots - 1,
      0,
    ];
    for (let slot = 0; slot < oldExpiries.length / 2; slot++) {
      const expiry = oldExpiries[2 * slot + 1]!;
      high = oldWords[4 * slot]!;
      if (high === 0 || !(expiry > time)) continue;
      low = oldWords[4 * slot + 1]!;
      put(find(), expiry);
      used++;
    }
    [high, low] = [keptHigh, keptLow];
  };

  /**
   * Drops the claims expired at `time` (growing the table to at least twice the claims held),
   * then sets when the next sweep is due and, if the store is still full, until when to refuse.
   */
  const sweep = (time: number): void => {
    let slots = Math.min(64, maxSlots);
    while (slots < 4 * used && slots < maxSlots) slots *= 2;
    if (slots === mask + 1) dropExpired(time);
    else copyLive(time, slots);
    if (used < maxEntries) {
      [sweepAt, fullUntil] = [Math.max(maxEntries, used + step), Number.NEGATIVE_INFINITY];
    } else {
      // Full: wait until enough claims expire for `step` new ones to fit.
      [sweepAt, fullUntil] = [used, expiredBy(used - maxEntries + step)];
    }
  };

  /** The time at which `count` of the claims held now (all live, after a sweep) have expired. */
  const expiredBy = (count: number): number => {
    const held = new Float64Array(used);
    let index = 0;
    for (let slot = 0; slot <= mask; slot++) {
      if (words[4 * slot] !== 0) held[index++] = expiries[2 * slot + 1]!;
    }
    return held.sort()[count - 1]!; // only when a sweep finds the store full
  };

  sweep(0);
  return {
    get size() {
      return used;
    },
    claim(key, ttlMs) {
      if (!(ttlMs > 0)) {
        throw invalidOptions(
          issue(
            'ttlMs',
            'out_of_range',
            `must be a positive number of ms, got ${describeValue(ttlMs)}`,
          ),
        );
      }
      const time = now();
      if (!Number.isFinite(time)) {
        throw invalidOptions(issue('now()', 'invalid', 'must return Unix milliseconds'));
      }
      const expiry = time + ttlMs;
      hash(key);
      let slot = find();
      if (words[4 * slot] !== 0) {
        if (expiries[2 * slot + 1]! > time) return false;
      } else {
        if (used >= sweepAt || (2 * used > mask && mask + 1 < maxSlots)) {
          if (time < fullUntil) throw storeFull(maxEntries);
          sweep(time);
          if (used >= maxEntries) throw storeFull(maxEntries);
          slot = find();
        }
        used++;
        // In a slot a release freed: refused until it expires too, at the latest.
        if (expiry < fullUntil) fullUntil = expiry;
      }
      put(slot, expiry);
      return true;
    },
    release(key) {
      hash(key);
      const slot = find();
      if (words[4 * slot] !== 0) remove(slot);
    },
  };
}

/** murmur3's finaliser: every bit of the result depends on every bit of `value`. */
function mix(value: number): number {
  let h = Math.imul(value ^ (value >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

function randomInt32(): number {
  return (Math.random() * 2 ** 32) | 0;
}

function storeFull(maxEntries: number): WebhookVerificationError {
  return new WebhookVerificationError(
    'replay_store_unavailable',
    `The replay store holds ${maxEntries} live claims (its maxEntries), so this delivery was ` +
      'refused rather than accepted unchecked. The sender retries later; raise maxEntries or ' +
      'use a shared store if this is real traffic.',
  );
}
