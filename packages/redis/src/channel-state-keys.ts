/**
 * The Redis key layout of a channel's shared state, in one place: the channel state store and
 * the delivery queue's worker scripts read and write the same two keys. The `{id}` hash tag
 * keeps both keys of a channel in one cluster slot.
 */

/** The two keys of one channel's state under `prefix`. */
export interface ChannelStateKeys {
  /** Consecutive failure count (`INCR`, reset to 0). */
  failures(channelId: string): string;
  /** Disabled flag (present while the channel is disabled). */
  disabled(channelId: string): string;
}

/** Key names of the channel state under `prefix`: `<prefix>:{<id>}:failures` and `…:disabled`. */
export function channelStateKeys(prefix: string): ChannelStateKeys {
  return {
    failures: (id) => `${prefix}:{${id}}:failures`,
    disabled: (id) => `${prefix}:{${id}}:disabled`,
  };
}
