/**
 * What a delivery gives back: the result type, and how an attempt's outcome and the channel's
 * state combine into it.
 */

import { redactUrls } from '@cspwatch/contract';
import type { AttemptReport } from './attempt-report';
import type { AttemptOutcome } from './deliver';

/** What happened to one delivery (or Test action), and the channel's state afterwards. */
export interface DeliveryResult extends AttemptReport {
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
