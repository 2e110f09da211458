import type { CspwatchEvent } from '@cspwatch/webhooks';
import { withCspwatchWebhook } from '@cspwatch/webhooks/next';
import { MISSING_SECRET_MESSAGE, webhookSecrets } from '../../../lib/secrets';
import { summarizeAlert } from '../../../lib/summarize';

/** Your handling of a verified alert: store it, open a ticket, page someone. */
async function handleAlert(event: CspwatchEvent): Promise<Response> {
  console.log(summarizeAlert(event));
  return Response.json({ received: event.id });
}

let verified: ((request: Request, context: unknown) => Promise<Response>) | undefined;

export async function POST(request: Request, context: unknown): Promise<Response> {
  if (!verified) {
    const secret = webhookSecrets();
    if (!secret) {
      console.error(MISSING_SECRET_MESSAGE);
      return Response.json({ error: 'webhook_secret_not_configured' }, { status: 500 });
    }
    // replay: a delivery accepted once is refused (409) if it is sent again.
    verified = withCspwatchWebhook(handleAlert, {
      secret,
      replay: true,
      onRejected: (error) => console.warn(`rejected delivery: ${error.code}`),
    });
  }
  return verified(request, context);
}
