import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CspwatchEvent } from '../payloads';
import {
  prepareSigning,
  type SignWebhookOptions,
  toWebhookHeaders,
  type WebhookHeaders,
} from '../sign';
import { finishVerification, prepareVerification, type VerifyWebhookOptions } from '../verify';

// ignoreBOM keeps a leading BOM, so bytes and the same text as a string parse alike.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const decode = (bytes: Uint8Array): string => decoder.decode(bytes);

/**
 * HMAC-SHA256 of `<timestamp>.<body>`, fed piece by piece: the body is never copied.
 * The secret string goes straight in: a cached `KeyObject` measured no faster.
 */
function hmac(secret: string, timestamp: string, body: string | Uint8Array): Buffer {
  const mac = createHmac('sha256', secret).update(timestamp).update('.');
  if (typeof body === 'string') mac.update(body, 'utf8');
  else mac.update(body);
  return mac.digest();
}

/**
 * Signs a delivery body synchronously with node:crypto, giving the headers to send with it.
 *
 * @example
 * ```ts
 * const body = JSON.stringify(alert);
 * const headers = signWebhookSync({ body, secret: process.env.CSPWATCH_SECRET! });
 * ```
 */
export function signWebhookSync(options: SignWebhookOptions): WebhookHeaders {
  const { body, secret, timestamp } = prepareSigning(options);
  return toWebhookHeaders(timestamp, hmac(secret, timestamp, body));
}

/**
 * Verifies a delivery synchronously with node:crypto and returns its parsed payload.
 * Throws {@link WebhookVerificationError} when the delivery is not genuine.
 *
 * @example
 * ```ts
 * const event = verifyWebhookSync({ body: req.body, headers: req.headers, secret });
 * ```
 */
export function verifyWebhookSync(options: VerifyWebhookOptions): CspwatchEvent {
  const prepared = prepareVerification(options);
  let matched = false;
  for (const secret of prepared.secrets) {
    if (timingSafeEqual(hmac(secret, prepared.timestamp, prepared.body), prepared.expected)) {
      matched = true;
      break;
    }
  }
  return finishVerification(matched, prepared.body, decode);
}

/**
 * Signs a delivery body with node:crypto (the `node` build of {@link signWebhook}).
 *
 * @example
 * ```ts
 * const headers = await signWebhook({ body, secret });
 * ```
 */
export async function signWebhook(options: SignWebhookOptions): Promise<WebhookHeaders> {
  return signWebhookSync(options);
}

/**
 * Verifies a delivery with node:crypto (the `node` build of {@link verifyWebhook}).
 *
 * @example
 * ```ts
 * const event = await verifyWebhook({ body: req.body, headers: req.headers, secret });
 * ```
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<CspwatchEvent> {
  return verifyWebhookSync(options);
}
