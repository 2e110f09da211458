/**
 * The channel state a job's slot script already read, handed to the sender: the worker gives
 * the sender a store whose `get` answers from that read (the sender reads the state once,
 * before its attempt, when `deliver` is called), and asks Redis only when nothing was handed.
 * Every other method is the Redis store's.
 */
import type { ChannelState, ChannelStateStore } from '@cspwatch/webhook-sender';

/** A store for the sender, and how a job hands it the state it read. */
export interface StateHandOff {
  /** The store to give the sender. */
  readonly store: ChannelStateStore;
  /**
   * Hands `state` to the next `get` of `channelId`; call the returned function once the
   * delivery is over (it withdraws the state if no `get` took it).
   */
  hand(channelId: string, state: ChannelState): () => void;
}

/** Wraps `store` (the Redis channel state store). */
export function createStateHandOff(store: ChannelStateStore): StateHandOff {
  const handed = new Map<string, ChannelState[]>();
  const take = (channelId: string) => {
    const states = handed.get(channelId);
    const state = states?.shift();
    if (states?.length === 0) handed.delete(channelId);
    return state;
  };
  return {
    store: {
      ...store,
      get: (channelId) => {
        const state = take(channelId);
        return state ? Promise.resolve(state) : store.get(channelId);
      },
    },
    hand(channelId, state) {
      const states = handed.get(channelId);
      if (states) states.push(state);
      else handed.set(channelId, [state]);
      return () => {
        const left = handed.get(channelId);
        const at = left?.indexOf(state) ?? -1;
        if (at < 0) return;
        left?.splice(at, 1);
        if (left?.length === 0) handed.delete(channelId);
      };
    },
  };
}
