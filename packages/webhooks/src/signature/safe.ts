import type { CspwatchEvent } from '../alerts/payloads';
import {
  isReceiverSetupError,
  isWebhookVerificationError,
  type WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from '../errors';

/**
 * What `safeVerifyWebhook` resolves to: the event, or why the delivery was refused. Only a
 * delivery's {@link WebhookVerificationError}s become `{ ok: false }`; the receiver's own setup
 * mistakes (`invalid_secret`, `invalid_options`, `body_not_raw`: see `isReceiverSetupError`)
 * and anything else (a bug) still throw.
 */
export type VerifyWebhookResult =
  | {
      /** The delivery is genuine. */
      ok: true;
      /** Its parsed alert. */
      event: CspwatchEvent;
    }
  | {
      /** The delivery was refused. */
      ok: false;
      /** Why; the same codes `verifyWebhook` throws. */
      code: WebhookVerificationErrorCode;
      /** What to check (never contains a secret). */
      message: string;
      /** The error `verifyWebhook` would have thrown. */
      error: WebhookVerificationError;
    };

/** Runs a verification and turns its `WebhookVerificationError` into a result. */
export function resultOf(verify: () => CspwatchEvent): VerifyWebhookResult {
  try {
    return { ok: true, event: verify() };
  } catch (error) {
    return refusal(error);
  }
}

/** {@link resultOf} for an async verification. */
export async function resultOfAsync(
  verify: () => Promise<CspwatchEvent>,
): Promise<VerifyWebhookResult> {
  try {
    return { ok: true, event: await verify() };
  } catch (error) {
    return refusal(error);
  }
}

function refusal(error: unknown): VerifyWebhookResult {
  // A bug, or the receiver's own setup (a missing secret): not a refused delivery.
  if (!isWebhookVerificationError(error) || isReceiverSetupError(error)) throw error;
  return { ok: false, code: error.code, message: error.message, error };
}
