/**
 * What a job hands the sender's store: the channel state its slot was taken with (the sender
 * reads the state once, before its attempt, when `deliver` is called), and on one redis-server
 * how to end the attempt (the sender's `recordAttempt` then counts it, records it and gives
 * its slot back in one script). The store asks Redis itself when nothing was handed; every
 * other method is the Redis store's.
 */
import type {
  ChannelAttempt,
  ChannelState,
  ChannelStateStore,
  RecordedAttempt,
} from '@cspwatch/webhook-sender';

/** What a job hands over for one delivery. */
export interface HandedAttempt {
  /** The state read when the job's slot was taken. */
  readonly state: ChannelState;
  /** Ends the attempt in place of the store's `recordAttempt`; absent: the store counts it. */
  readonly end?: (attempt: ChannelAttempt) => Promise<RecordedAttempt>;
}

/** A store for the sender, and how a job hands it what it knows. */
export interface StateHandOff {
  /** The store to give the sender. */
  readonly store: ChannelStateStore;
  /**
   * Hands `handed` to the next `get` of `channelId` and to the `recordAttempt` of `alertId` on
   * it; call the returned function once the delivery is over (it withdraws what was not taken).
   */
  hand(channelId: string, alertId: string, handed: HandedAttempt): () => void;
}

/** A first-in, first-out list of values by key. */
function queuesByKey<T>() {
  const byKey = new Map<string, T[]>();
  return {
    push(key: string, value: T) {
      const values = byKey.get(key);
      if (values) values.push(value);
      else byKey.set(key, [value]);
    },
    take(key: string): T | undefined {
      const values = byKey.get(key);
      const value = values?.shift();
      if (values?.length === 0) byKey.delete(key);
      return value;
    },
    remove(key: string, value: T) {
      const values = byKey.get(key);
      const at = values?.indexOf(value) ?? -1;
      if (at < 0) return;
      values?.splice(at, 1);
      if (values?.length === 0) byKey.delete(key);
    },
  };
}

/** Wraps `store` (the Redis channel state store). */
export function createStateHandOff(store: ChannelStateStore): StateHandOff {
  const states = queuesByKey<ChannelState>();
  const ends = queuesByKey<NonNullable<HandedAttempt['end']>>();
  const endKey = (channelId: string, alertId: string) => `${channelId}\n${alertId}`;
  return {
    store: {
      ...store,
      get: (channelId) => {
        const state = states.take(channelId);
        return state ? Promise.resolve(state) : store.get(channelId);
      },
      recordAttempt: (channelId, attempt) => {
        const alertId = attempt.delivery?.alertId;
        const end = alertId ? ends.take(endKey(channelId, alertId)) : undefined;
        return end ? end(attempt) : store.recordAttempt(channelId, attempt);
      },
    },
    hand(channelId, alertId, { state, end }) {
      states.push(channelId, state);
      if (end) ends.push(endKey(channelId, alertId), end);
      return () => {
        states.remove(channelId, state);
        if (end) ends.remove(endKey(channelId, alertId), end);
      };
    },
  };
}
