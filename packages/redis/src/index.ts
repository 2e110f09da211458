/**
 * @cspwatch/redis: Redis-backed state for cspwatch webhooks. This entry point holds the two
 * stores, which need only `ioredis`: the sender's shared channel state and the receiver's
 * replay claims. The durable delivery queue (BullMQ) is the `@cspwatch/redis/queue` entry.
 *
 * @packageDocumentation
 */

export {
  CspwatchRedisError,
  type CspwatchRedisErrorCode,
  type CspwatchRedisErrorOptions,
  isCspwatchRedisError,
  type RedisOptionIssue,
} from './errors';
export {
  createRedisChannelStateStore,
  DEFAULT_CHANNEL_STATE_PREFIX,
} from './stores/channel-state-store';
export { createRedisReplayStore, DEFAULT_REPLAY_PREFIX } from './stores/replay-store';
export type { RedisStoreOptions } from './stores/store-options';
