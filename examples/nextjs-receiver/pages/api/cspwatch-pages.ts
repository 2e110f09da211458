import {
  type CspwatchEvent,
  createReplayGuard,
  isWebhookVerificationError,
  releaseReplayClaim,
} from '@cspwatch/webhooks';
import { sendWebhookProblem, verifyNextApiRequest } from '@cspwatch/webhooks/next';
import type { NextApiRequest, NextApiResponse } from 'next';
import { MISSING_SECRET_MESSAGE, webhookSecrets } from '../../lib/secrets';
import { summarizeAlert } from '../../lib/summarize';

/** The Pages Router must hand over the untouched body stream: the signature covers its bytes. */
export const config = { api: { bodyParser: false } };

/** One guard for this server process: a delivery accepted once is refused (409) if sent again. */
const replay = createReplayGuard();

/** Pages Router API route: `POST /api/cspwatch-pages`. */
export default async function handler(req: NextApiRequest, res: NextApiResponse): Promise<void> {
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    res.status(405).end();
    return;
  }
  const secret = webhookSecrets();
  if (!secret) {
    console.error(MISSING_SECRET_MESSAGE);
    res.status(500).json({ error: 'webhook_secret_not_configured' });
    return;
  }
  let event: CspwatchEvent;
  try {
    event = await verifyNextApiRequest(req, { secret, replay });
  } catch (error) {
    if (!isWebhookVerificationError(error)) throw error;
    console.warn(`rejected delivery: ${error.code}`);
    sendWebhookProblem(res, error);
    return;
  }
  try {
    console.log(summarizeAlert(event));
    res.status(200).json({ received: event.id });
  } catch (error) {
    // Free the claim so the sender's retry of this alert is accepted.
    await releaseReplayClaim(event);
    throw error;
  }
}
