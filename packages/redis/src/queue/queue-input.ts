/**
 * Checks of what `enqueue` and the admin calls take, before anything is sent to Redis.
 */
import type { CspwatchEvent } from '@cspwatch/webhooks';
import { CspwatchRedisError } from '../errors';

/** Throws `invalid_input` unless `channelId` is a usable channel id. */
export function checkChannelId(channelId: unknown): asserts channelId is string {
  if (typeof channelId !== 'string' || channelId === '' || channelId.length > 256) {
    throw new CspwatchRedisError(
      'invalid_input',
      'channelId must be a non-empty string (at most 256 characters)',
    );
  }
}

/** Throws `invalid_input` unless `alert` is an alert object; returns its JSON copy for the job. */
export function toJobAlert(alert: unknown): CspwatchEvent {
  if (
    typeof alert !== 'object' ||
    alert === null ||
    typeof (alert as { id?: unknown }).id !== 'string'
  ) {
    throw new CspwatchRedisError(
      'invalid_input',
      'alert must be an alert object with a string id (see buildAlert)',
    );
  }
  try {
    return JSON.parse(JSON.stringify(alert)) as CspwatchEvent;
  } catch (error) {
    throw new CspwatchRedisError(
      'invalid_input',
      'alert cannot be serialised as JSON (circular or BigInt value)',
      { cause: error },
    );
  }
}
