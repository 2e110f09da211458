import {
  type CspwatchEvent,
  isReceiverSetupError,
  isWebhookVerificationError,
  type WebhookSecret,
} from '@cspwatch/webhooks';
import { createProblemResponse, verifyRequest } from '@cspwatch/webhooks/fetch';
import { Hono } from 'hono';
import { summarizeAlert } from './summarize';

/** Options of {@link createApp}. */
export interface ReceiverOptions {
  /**
   * The channel's signing secret, or several while rotating (any match passes), or a function
   * that gives them per request (Workers: bindings exist per request only).
   */
  secret: WebhookSecret;
  /** Where log lines go. @default console.log */
  log?: (line: string) => void;
  /** Your handling of a verified alert (store it, page someone, …). */
  onAlert?: (event: CspwatchEvent) => void | Promise<void>;
}

/**
 * A Hono app that accepts cspwatch deliveries at `POST /webhooks/cspwatch`: 204 for a
 * verified alert, 400 `application/problem+json` (with a `code`) for anything else. The same
 * `app.fetch` runs on Cloudflare Workers, Bun, Deno and Node.
 */
export function createApp(options: ReceiverOptions): Hono {
  const { secret, log = console.log, onAlert } = options;
  const app = new Hono();
  app.post('/webhooks/cspwatch', async (c) => {
    let event: CspwatchEvent;
    try {
      // The raw Request, body unread: the signature covers the exact bytes.
      event = await verifyRequest(c.req.raw, { secret });
    } catch (error) {
      if (!isWebhookVerificationError(error)) throw error;
      // Our own setup (no secret configured) answers 500; a bad delivery, 400.
      log(
        isReceiverSetupError(error)
          ? `webhook setup: ${error.message}`
          : `rejected delivery: ${error.code}`,
      );
      return createProblemResponse(error);
    }
    log(summarizeAlert(event));
    await onAlert?.(event);
    return c.body(null, 204);
  });
  return app;
}
