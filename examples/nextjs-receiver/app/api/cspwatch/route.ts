import type { CspwatchEvent } from '@cspwatch/webhooks';
import { withCspwatchWebhook } from '@cspwatch/webhooks/next';
import { webhookSecrets } from '../../../lib/secrets';
import { summarizeAlert } from '../../../lib/summarize';

/** Your handling of a verified alert: store it, open a ticket, page someone. */
async function handleAlert(event: CspwatchEvent): Promise<Response> {
  console.log(summarizeAlert(event));
  return Response.json({ received: event.id });
}

/**
 * App Router route: `POST /api/cspwatch`. `secret` is a function, called per request, so
 * `next build` loads this module without the secret. replay: a delivery accepted once is
 * refused (409) if it is sent again.
 */
export const POST = withCspwatchWebhook(handleAlert, {
  secret: webhookSecrets,
  replay: true,
  onRejected: (error) => console.warn(`rejected delivery: ${error.code}`),
});
