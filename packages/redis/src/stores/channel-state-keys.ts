/**
 * The Redis key layout of a channel's shared state, in one place. The `{id}` hash tag keeps
 * every key of a channel in one cluster slot, so one script may touch them all.
 */

/** The keys of one channel's state under `prefix`. */
export interface ChannelStateKeys {
  /** Consecutive failure count (`INCR`, reset to 0). */
  failures(channelId: string): string;
  /** Disabled flag (present while the channel is disabled). */
  disabled(channelId: string): string;
  /** Short-lived key that makes one counted failure idempotent (`token` is unique to the call). */
  once(channelId: string, token: string): string;
  /** Set of the disabled channels' ids, so counting them is one `SCARD` (for metrics). */
  readonly disabledChannels: string;
}

/**
 * Key names of the channel state under `prefix`: `<prefix>:{<id>}:failures`, `…:disabled`,
 * `…:once:<token>`, and the index `<prefix>:disabled-channels`.
 */
export function channelStateKeys(prefix: string): ChannelStateKeys {
  return {
    failures: (id) => `${prefix}:{${id}}:failures`,
    disabled: (id) => `${prefix}:{${id}}:disabled`,
    once: (id, token) => `${prefix}:{${id}}:once:${token}`,
    disabledChannels: `${prefix}:disabled-channels`,
  };
}
