/**
 * An alert to bytes, once: the same UTF-8 bytes are signed and sent.
 */
import type { CspwatchEvent } from '@cspwatch/webhooks';
import { WebhookSenderError } from '../errors';

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
