/**
 * Helpers for testing your own webhook handler: build the sample alert (the one the Test
 * action sends) and sign it, giving a body and headers ready to POST. Every runtime.
 *
 * @packageDocumentation
 */

import { signWebhook } from './crypto/web';
import type { CspwatchEvent } from './payloads';
import type { WebhookHeaders } from './sign';

export { createSampleAlert, type SampleAlertOverrides } from './sample-alert';

import { createSampleAlert } from './sample-alert';

/** What {@link createSignedDelivery} needs. */
export interface SignedDeliveryOptions {
  /** The signing secret your handler verifies with. */
  secret: string;
  /**
   * The alert to send; a JSON string is sent byte for byte.
   * @default createSampleAlert()
   */
  payload?: CspwatchEvent | string;
  /**
   * Unix ms to sign with; pass an old one to test the replay window.
   * @default Date.now()
   */
  timestamp?: number;
}

/** A signed delivery, as cspwatch would POST it. */
export interface SignedDelivery {
  /** The JSON body, exactly as signed. */
  body: string;
  /** `content-type`, timestamp and signature headers. */
  headers: WebhookHeaders;
}

/**
 * Signs an alert (the sample alert by default) like a real delivery.
 *
 * @example
 * ```ts
 * const { body, headers } = await createSignedDelivery({ secret: 'test-secret-123' });
 * const response = await fetch('http://127.0.0.1:3000/webhooks/cspwatch', {
 *   method: 'POST',
 *   headers,
 *   body,
 * });
 * ```
 */
export async function createSignedDelivery(
  options: SignedDeliveryOptions,
): Promise<SignedDelivery> {
  const payload = options.payload ?? createSampleAlert();
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const headers = await signWebhook({
    body,
    secret: options.secret,
    ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
  });
  return { body, headers };
}
