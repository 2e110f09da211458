import type { CspwatchEvent } from '@cspwatch/webhooks';
import { withCspwatchWebhook } from '@cspwatch/webhooks/next';
import { summarizeAlert } from '../../../lib/summarize';

/** Your handling of a verified alert: store it, open a ticket, page someone. */
async function handleAlert(event: CspwatchEvent): Promise<Response> {
  console.log(summarizeAlert(event));
  return Response.json({ received: event.id });
}

/**
 * The signing secret, plus the previous one while you rotate it. Read on the first request,
 * not when the module loads: `next build` loads route modules, and the secret is a run-time
 * setting that the build machine need not have.
 */
function secrets(): string[] | undefined {
  const current = process.env.CSPWATCH_WEBHOOK_SECRET;
  const previous = process.env.CSPWATCH_WEBHOOK_PREVIOUS_SECRET;
  if (!current) return undefined;
  return previous ? [current, previous] : [current];
}

let verified: ((request: Request, context: unknown) => Promise<Response>) | undefined;

export async function POST(request: Request, context: unknown): Promise<Response> {
  if (!verified) {
    const secret = secrets();
    if (!secret) {
      console.error('CSPWATCH_WEBHOOK_SECRET is not set: refusing webhook deliveries.');
      return Response.json({ error: 'webhook_secret_not_configured' }, { status: 500 });
    }
    verified = withCspwatchWebhook(handleAlert, { secret });
  }
  return verified(request, context);
}
