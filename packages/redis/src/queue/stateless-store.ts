/**
 * The channel state store of the sender inside a worker: it holds nothing. The worker keeps
 * the shared state itself (see `attempt-record.ts`): it reads the disabled flag before each
 * attempt and commits the outcome with its history entry in one script, so the sender only
 * signs, sends and classifies the answer.
 */
import type { ChannelStateStore } from '@cspwatch/webhook-sender';

/** A store that reports every channel enabled with no failures and records nothing. */
export const STATELESS_STORE: ChannelStateStore = Object.freeze({
  get: async () => ({ consecutiveFailures: 0, disabled: false }),
  recordFailure: async () => 0,
  recordSuccess: async () => {},
  disable: async () => false,
  enable: async () => {},
});
