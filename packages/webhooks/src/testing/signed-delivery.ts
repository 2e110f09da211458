import type { CspwatchEvent } from '../alerts/payloads';
import { createSampleAlert } from '../alerts/sample-alert';
import type { SignWebhookOptions, WebhookHeaders } from '../signature/sign';

/** What `createSignedDelivery` needs. */
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

/** Signs an alert (the sample alert by default) with the given backend's `signWebhook`. */
export async function signDelivery(
  options: SignedDeliveryOptions,
  signWebhook: (options: SignWebhookOptions) => Promise<WebhookHeaders>,
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
