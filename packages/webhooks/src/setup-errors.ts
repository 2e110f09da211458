import { isWebhookVerificationError, type WebhookVerificationErrorCode } from './errors';

/** The codes that describe the receiver's own setup, not the delivery it was sent. */
const SETUP_CODES: ReadonlySet<WebhookVerificationErrorCode> = new Set([
  'invalid_secret',
  'invalid_options',
  'body_not_raw',
]);

/**
 * Tells a receiver's own setup mistake (no secret or a short one — usually an unset
 * environment variable —, invalid options, a body parser that ran first) from a bad delivery.
 * Such an error is not the sender's fault: rethrow it, so it is a 500 in your logs. Answered
 * as a 400, it would look like forged deliveries, and the sender would disable the channel
 * after five of them. The adapters and `safeVerifyWebhook` already treat it so.
 *
 * @example
 * ```ts
 * } catch (error) {
 *   if (!isWebhookVerificationError(error) || isReceiverSetupError(error)) throw error;
 *   return new Response(error.code, { status: 400 }); // a delivery that failed verification
 * }
 * ```
 */
export function isReceiverSetupError(error: unknown): boolean {
  return isWebhookVerificationError(error) && SETUP_CODES.has(error.code);
}
