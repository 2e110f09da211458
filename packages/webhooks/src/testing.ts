/**
 * Helpers for testing your own webhook handler: build the sample alert (the one the Test
 * action sends) and sign it, giving a body and headers ready to POST. Every runtime.
 *
 * @packageDocumentation
 */

import { signWebhook } from './crypto/web';
import {
  type SignedDelivery,
  type SignedDeliveryOptions,
  signDelivery,
} from './testing/signed-delivery';

export { createSampleAlert, type SampleAlertOverrides } from './alerts/sample-alert';
export type { SignedDelivery, SignedDeliveryOptions } from './testing/signed-delivery';

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
export function createSignedDelivery(options: SignedDeliveryOptions): Promise<SignedDelivery> {
  return signDelivery(options, signWebhook);
}
