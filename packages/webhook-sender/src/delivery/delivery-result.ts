/**
 * What a delivery gives back: the result type, and how an attempt's outcome and the channel's
 * state combine into it.
 */

import { redactUrls } from '@cspwatch/contract';
import type { TargetRejection } from '../target/target-policy';
import type { AttemptOutcome, DeliveryFailureCause } from './deliver';

/** What happened to one delivery (or Test action), and the channel's state afterwards. */
export interface DeliveryResult {
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
  /** Consecutive failures of the channel after this delivery. */
  readonly consecutiveFailures: number;
  /** `true` only for the delivery whose failure disabled the channel. */
  readonly disabledNow: boolean;
  /** Whether the channel is disabled after this delivery. */
  readonly disabled: boolean;
  /** `true` for the Test action (state untouched). */
  readonly test: boolean;
}

/** The state part of a {@link DeliveryResult}. */
type ResultState = Pick<
  DeliveryResult,
  'consecutiveFailures' | 'disabled' | 'disabledNow' | 'test'
>;

/**
 * What one attempt did, as its {@link DeliveryResult} says it but for the channel's state: the
 * sender hands it to `ChannelStateStore.recordAttempt` (`ChannelAttempt.delivery`), so a store
 * may keep a record of the attempt in the same atomic step as its count.
 */
export type AttemptReport = Omit<DeliveryResult, keyof ResultState>;

/** Text a result may carry: what the receiver or the network said, its URLs redacted. */
const shown = (text: string | null): string | null => (text === null ? null : redactUrls(text));

/**
 * Describes an attempt's outcome as a {@link AttemptReport}. Its texts pass the URL rule here,
 * once, so a result can be printed, logged or stored whole.
 */
export function toAttemptReport(
  channelId: string,
  alertId: string | null,
  outcome: AttemptOutcome,
): AttemptReport {
  const { ok, status, durationMs, cause, location, error, rejection, responseExcerpt } = outcome;
  return {
    ok,
    channelId,
    alertId,
    status,
    durationMs,
    cause,
    location: shown(location),
    error: shown(error),
    rejection,
    responseExcerpt: shown(responseExcerpt),
  };
}

/** Combines an attempt's outcome with the channel's state into a {@link DeliveryResult}. */
export function toDeliveryResult(
  channelId: string,
  alertId: string | null,
  outcome: AttemptOutcome,
  state: ResultState,
): DeliveryResult {
  return withState(toAttemptReport(channelId, alertId, outcome), state);
}

/** A {@link DeliveryResult} of a report and the channel's state after it. */
export function withState(report: AttemptReport, state: ResultState): DeliveryResult {
  return {
    ...report,
    consecutiveFailures: state.consecutiveFailures,
    disabled: state.disabled,
    disabledNow: state.disabledNow,
    test: state.test,
  };
}

/** The outcome of a delivery skipped because the channel is disabled. */
export const SKIPPED_DISABLED: AttemptOutcome = Object.freeze({
  ok: false,
  status: null,
  durationMs: 0,
  cause: 'channel_disabled',
  location: null,
  error: 'the channel is disabled; re-enable it to deliver',
  rejection: null,
  responseExcerpt: null,
});
