/**
 * What one attempt did, as its {@link DeliveryResult} says it but for the channel's state. The
 * sender hands it to `ChannelStateStore.recordAttempt` (`ChannelAttempt.delivery`), so a store
 * may keep a record of the attempt in the same atomic step as its count.
 */
import type { TargetRejection } from '../target/target-verdict';
import type { DeliveryFailureCause } from './failure-cause';

/** What one attempt did, but for the channel's state (see the module comment). */
export interface AttemptReport {
  /** `true` when the endpoint answered 2xx. */
  readonly ok: boolean;
  /** The channel delivered to. */
  readonly channelId: string;
  /** The `id` of the alert sent, or `null` when nothing was sent. */
  readonly alertId: string | null;
  /** HTTP status of the answer, or `null` when none arrived. */
  readonly status: number | null;
  /** Time from start to outcome, in whole milliseconds (0 when skipped). */
  readonly durationMs: number;
  /** Why it failed, or `null` on success. */
  readonly cause: DeliveryFailureCause | null;
  /**
   * The `location` header of a redirect answer (never followed), its userinfo removed and its
   * query values redacted like every URL the SDK prints.
   */
  readonly location: string | null;
  /** A short description of a network error, timeout or refusal (URLs in it redacted). */
  readonly error: string | null;
  /** The target-policy refusal, when `cause` is `target_rejected`. */
  readonly rejection: TargetRejection | null;
  /** The start of the response body (capped by `maxResponseBodyBytes`; URLs in it redacted). */
  readonly responseExcerpt: string | null;
}
