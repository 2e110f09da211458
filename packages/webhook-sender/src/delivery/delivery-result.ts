/**
 * What a delivery takes and gives back: the channel fields it needs, the result type, and the
 * helpers that check the input and serialise the alert once.
 */
import { type CspwatchEvent, MIN_SECRET_LENGTH } from '@cspwatch/webhooks';
import type { AttemptOutcome, DeliveryFailureCause } from './deliver.js';
import { WebhookSenderError } from './errors.js';
import type { TargetRejection } from './target-policy.js';

/** What a delivery needs of a channel; a {@link WebhookChannel} fits. */
export interface DeliveryChannel {
  /** Channel identifier: the key of its state in the store. */
  readonly id: string;
  /** The delivery URL (checked by the target policy before every delivery). */
  readonly url: string;
  /** The signing secret. */
  readonly secret: string;
}

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
  /** The `location` header of a redirect answer (never followed). */
  readonly location: string | null;
  /** A short description of a network error, timeout or refusal. */
  readonly error: string | null;
  /** The target-policy refusal, when `cause` is `target_rejected`. */
  readonly rejection: TargetRejection | null;
  /** The start of the response body (capped by `maxResponseBodyBytes`). */
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

/** Throws `invalid_channel` unless the channel can be delivered to. */
export function checkChannel(channel: DeliveryChannel): void {
  const bad = (path: string, message: string) =>
    new WebhookSenderError('invalid_channel', [{ path, code: 'invalid', message }]);
  if (typeof channel !== 'object' || channel === null) throw bad('(channel)', 'must be an object');
  if (typeof channel.id !== 'string' || channel.id === '')
    throw bad('id', 'must be a non-empty string');
  if (typeof channel.url !== 'string') throw bad('url', 'must be a string');
  if (typeof channel.secret !== 'string' || [...channel.secret].length < MIN_SECRET_LENGTH) {
    throw bad('secret', 'must be a string of at least 8 characters');
  }
}

/** Serialises an alert once, to the UTF-8 bytes that are both signed and sent. */
export function serialise(alert: CspwatchEvent): Uint8Array {
  const refuse = (message: string, cause?: unknown) =>
    new WebhookSenderError('invalid_alert', [{ path: '(alert)', code: 'not_an_alert', message }], {
      cause,
    });
  if (typeof alert !== 'object' || alert === null || typeof alert.id !== 'string') {
    throw refuse('must be an alert object with a string id (see buildAlert)');
  }
  try {
    return Buffer.from(JSON.stringify(alert), 'utf8');
  } catch (error) {
    throw refuse('cannot be serialised as JSON (circular or BigInt value)', error);
  }
}

/** The state part of a {@link DeliveryResult}. */
type ResultState = Pick<
  DeliveryResult,
  'consecutiveFailures' | 'disabled' | 'disabledNow' | 'test'
>;

/** Combines an attempt's outcome with the channel's state into a {@link DeliveryResult}. */
export function toDeliveryResult(
  channelId: string,
  alertId: string | null,
  outcome: AttemptOutcome,
  state: ResultState,
): DeliveryResult {
  const { ok, status, durationMs, cause, location, error, rejection, responseExcerpt } = outcome;
  return {
    ok,
    channelId,
    alertId,
    status,
    durationMs,
    cause,
    location,
    error,
    rejection,
    responseExcerpt,
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
