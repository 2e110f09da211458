import {
  type CspwatchEvent,
  createReplayGuard,
  isReceiverSetupError,
  isWebhookVerificationError,
  releaseReplayClaim,
} from '@cspwatch/webhooks';
import { sendWebhookProblem, verifyNextApiRequest } from '@cspwatch/webhooks/next';
import type { NextApiRequest, NextApiResponse } from 'next';
import { webhookSecrets } from '../../lib/secrets';
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
  let event: CspwatchEvent;
  try {
    event = await verifyNextApiRequest(req, { secret: webhookSecrets, replay });
  } catch (error) {
    if (!isWebhookVerificationError(error)) throw error;
    // Our own setup (no secret configured) is a 500 to fix here, not a refused delivery.
    if (isReceiverSetupError(error)) console.error(`webhook setup: ${error.message}`);
    else console.warn(`rejected delivery: ${error.code}`);
    sendWebhookProblem(res, error); // 400/409/413/503, or 500 for a setup error
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
