import {
  isWebhookVerificationError,
  type WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from './errors';
import type { CspwatchEvent } from './payloads';

/**
 * What `safeVerifyWebhook` resolves to: the event, or why the delivery was refused. Only
 * {@link WebhookVerificationError}s become `{ ok: false }`; anything else (a bug) still throws.
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
  if (!isWebhookVerificationError(error)) throw error;
  return { ok: false, code: error.code, message: error.message, error };
}
