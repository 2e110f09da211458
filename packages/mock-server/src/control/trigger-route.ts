import { isWebhookSenderError } from '@cspwatch/webhook-sender';
import { sampleAlertInput, triggerAlert } from '../alerts/trigger';
import { json, validationProblem } from '../http/problem';
import type { RouteHandler } from '../routes/context';
import { readValid } from './body';
import { TriggerRequestSchema } from './request-schemas';

/**
 * `POST /_mock/trigger`: `{ to, secret, sample? | alert? }` sends one signed alert (the
 * sample, with `sample` overrides, or `alert` as `buildAlert` input) and answers `200`
 * with `{ alert, result }` whatever the handler answered; `400` when the input is invalid.
 * A trigger to a receiver outside this mock is listed on the inbox page.
 */
export const triggerRoute: RouteHandler = async (request, _params, { triggers }) => {
  const body = await readValid(request, TriggerRequestSchema);
  if (!body.ok) return body.response;
  const { to, secret, sample, alert } = body.value;
  if (sample && alert)
    return validationProblem([{ path: 'alert', message: 'Give sample or alert, not both.' }]);
  const clean = Object.fromEntries(Object.entries(sample ?? {}).filter(([, v]) => v !== undefined));
  const input = alert ?? sampleAlertInput(clean);
  try {
    const sent = await triggerAlert(to, secret, input as Parameters<typeof triggerAlert>[2]);
    triggers.record(to, sent);
    return json(sent);
  } catch (error) {
    if (!isWebhookSenderError(error)) throw error;
    const prefix = error.code === 'invalid_alert' ? (alert ? 'alert.' : 'sample.') : '';
    return validationProblem(
      error.issues.map((issue) => ({
        path: error.code === 'invalid_channel' ? issue.path : `${prefix}${issue.path}`,
        message: issue.message,
      })),
    );
  }
};
