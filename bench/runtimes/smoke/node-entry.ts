/**
 * The Node-only entry (`@cspwatch/webhooks/node`, synchronous, node:crypto), checked on the
 * runtimes that offer Node's built-ins (Node, Bun, Deno).
 */
import {
  isWebhookVerificationError,
  signWebhookSync,
  verifyWebhookSync,
} from '@cspwatch/webhooks/node';
import type { SmokeCheck, SmokeConfig } from './suite.js';

/** Signs and verifies with the sync API and rejects a tampered body; never throws. */
export async function runNodeEntryCheck(config: SmokeConfig): Promise<SmokeCheck> {
  const name = 'node entry (sync)';
  try {
    const { body, secret, timestamp } = config;
    const headers = signWebhookSync({ body, secret, timestamp });
    if (headers['x-cspwatch-signature'] !== config.expectedSignature) {
      return { name, ok: false, detail: 'signWebhookSync differs from node:crypto' };
    }
    const now = () => timestamp;
    verifyWebhookSync({ body: new TextEncoder().encode(body), headers, secret, now });
    try {
      verifyWebhookSync({ body: `${body} `, headers, secret, now });
      return { name, ok: false, detail: 'verifyWebhookSync accepted a tampered body' };
    } catch (error) {
      if (!isWebhookVerificationError(error)) throw error;
    }
    return {
      name,
      ok: true,
      detail: 'signWebhookSync/verifyWebhookSync agree, tampering rejected',
    };
  } catch (error) {
    return { name, ok: false, detail: String(error).slice(0, 300) };
  }
}
