/**
 * What a delivery needs of a channel, and the check that it can be delivered to.
 */
import { MIN_SECRET_LENGTH, secretProblem } from '@cspwatch/webhooks';
import { WebhookSenderError } from '../errors';

/** What a delivery needs of a channel; a {@link WebhookChannel} fits. */
export interface DeliveryChannel {
  /** Channel identifier: the key of its state in the store. */
  readonly id: string;
  /** The delivery URL (checked by the target policy before every delivery). */
  readonly url: string;
  /** The signing secret. */
  readonly secret: string;
}

/** Throws `invalid_channel` unless the channel can be delivered to. */
export function checkChannel(channel: DeliveryChannel): void {
  const bad = (path: string, message: string) =>
    new WebhookSenderError('invalid_channel', [{ path, code: 'invalid', message }]);
  if (typeof channel !== 'object' || channel === null) throw bad('(channel)', 'must be an object');
  if (typeof channel.id !== 'string' || channel.id === '')
    throw bad('id', 'must be a non-empty string');
  if (typeof channel.url !== 'string') throw bad('url', 'must be a string');
  if (secretProblem(channel.secret) !== undefined) {
    throw bad('secret', `must be a string of at least ${MIN_SECRET_LENGTH} characters`);
  }
}
