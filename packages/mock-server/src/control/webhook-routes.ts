/** Control API: the service's webhook channels, alert rules and the log of alerts raised. */
import { isWebhookSenderError } from '@cspwatch/webhook-sender';
import { json, problem, validationProblem } from '../http/problem';
import type { RouteHandler } from '../routes/context';
import { randomHex } from '../store/tokens';
import { readValid } from './body';
import {
  CreateAlertRuleRequestSchema,
  CreateWebhookChannelRequestSchema,
  UpdateWebhookChannelRequestSchema,
} from './request-schemas';

const channelNotFound = () =>
  problem({
    status: 404,
    code: 'webhook_channel_not_found',
    detail: 'No webhook channel with this id.',
  });

/** Runs a channel change, answering the sender's `invalid_channel` as `400` with each field. */
async function withChannelErrors(
  change: () => Promise<Response>,
  loopback: boolean,
): Promise<Response> {
  try {
    return await change();
  } catch (error) {
    if (!isWebhookSenderError(error)) throw error;
    const hint = loopback
      ? ''
      : ' (a loopback URL needs the mock option dangerouslyAllowLoopbackWebhooks)';
    return validationProblem(
      error.issues.map((issue) => ({
        path: issue.path,
        message: `${issue.message}${issue.path === 'url' ? hint : ''}`,
      })),
    );
  }
}

/** `GET /_mock/webhook-channels`. */
export const listChannels: RouteHandler = async (_request, _params, { webhookChannels }) =>
  json({ data: await webhookChannels.list() });

/** `POST /_mock/webhook-channels`: `{ name, url, secret, enabled? }`; `201` with the channel (no secret). */
export const createChannel: RouteHandler = async (request, _params, context) => {
  const body = await readValid(request, CreateWebhookChannelRequestSchema);
  if (!body.ok) return body.response;
  const { id, enabled, ...fields } = body.value;
  if (id !== undefined && context.webhookChannels.get(id))
    return validationProblem([{ path: 'id', message: 'A webhook channel with this id exists.' }]);
  return withChannelErrors(async () => {
    const view = await context.webhookChannels.create({
      ...fields,
      ...(id === undefined ? {} : { id }),
      ...(enabled === undefined ? {} : { enabled }),
    });
    context.revision.bump();
    return json(view, 201);
  }, context.dangerouslyAllowLoopbackWebhooks);
};

/** `PATCH /_mock/webhook-channels/{id}`: edit; `enabled: true` re-enables and resets the failure count. */
export const updateChannel: RouteHandler = async (request, [id], context) => {
  const body = await readValid(request, UpdateWebhookChannelRequestSchema);
  if (!body.ok) return body.response;
  const patch = Object.fromEntries(Object.entries(body.value).filter(([, v]) => v !== undefined));
  return withChannelErrors(async () => {
    const view = await context.webhookChannels.update(id!, patch);
    if (!view) return channelNotFound();
    context.revision.bump();
    return json(view);
  }, context.dangerouslyAllowLoopbackWebhooks);
};

/**
 * `POST /_mock/webhook-channels/{id}/test`: the Test action. Sends one signed sample alert now,
 * whatever the channel's state, and answers `200` with the delivery result whatever the
 * receiver answered; the failure count and the state do not change.
 */
export const testChannel: RouteHandler = async (_request, [id], { webhookChannels }) => {
  const result = await webhookChannels.test(id!);
  return result ? json(result) : channelNotFound();
};

/** `DELETE /_mock/webhook-channels/{id}`; rules stop delivering to it. */
export const deleteChannel: RouteHandler = async (_request, [id], context) => {
  if (!context.webhookChannels.remove(id!)) return channelNotFound();
  for (const rule of context.alerts.rules)
    rule.channelIds = rule.channelIds.filter((channelId) => channelId !== id);
  context.revision.bump();
  return new Response(null, { status: 204 });
};

/** `GET /_mock/alert-rules`. */
export const listRules: RouteHandler = async (_request, _params, { alerts }) =>
  json({ data: alerts.rules });

/** `POST /_mock/alert-rules`: `{ name, websiteId, channelIds }`; the website and channels must exist. */
export const createRule: RouteHandler = async (request, _params, context) => {
  const body = await readValid(request, CreateAlertRuleRequestSchema);
  if (!body.ok) return body.response;
  const { name, websiteId, channelIds } = body.value;
  const errors = channelIds.flatMap((channelId, index) =>
    context.webhookChannels.get(channelId)
      ? []
      : [
          {
            path: `channelIds.${index}`,
            message: 'No webhook channel with this id; create it first.',
          },
        ],
  );
  if (!context.store.website(websiteId))
    errors.unshift({ path: 'websiteId', message: 'No website with this id; create it first.' });
  if (errors.length > 0) return validationProblem(errors);
  const rule = { id: `rule_${randomHex(16)}`, name, websiteId, channelIds };
  context.alerts.rules.push(rule);
  return json(rule, 201);
};

/** `DELETE /_mock/alert-rules/{id}`. */
export const deleteRule: RouteHandler = async (_request, [id], { alerts }) => {
  const before = alerts.rules.length;
  alerts.rules = alerts.rules.filter((rule) => rule.id !== id);
  if (alerts.rules.length === before)
    return problem({ status: 404, code: 'rule_not_found', detail: 'No alert rule with this id.' });
  return new Response(null, { status: 204 });
};

/** `GET /_mock/alerts`: alerts raised, newest first, each with its delivery results; `?wait=1` first waits for deliveries in flight. */
export const listAlerts: RouteHandler = async (request, _params, { alerts }) => {
  if (new URL(request.url).searchParams.get('wait') === '1') await alerts.idle();
  return json({ data: alerts.log });
};
