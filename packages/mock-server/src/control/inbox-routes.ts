/** Control API: the webhook inbox (channels to deliver to, their deliveries and verdicts). */
import type { z } from 'zod';
import { isMockServerError } from '../errors';
import { json, problem, validationProblem } from '../http/problem';
import type { InboxResponse } from '../inbox/types';
import type { RouteHandler } from '../routes/context';
import { readValid } from './body';
import { CreateInboxChannelRequestSchema, InboxResponseSchema } from './request-schemas';
import type { ClearedDeliveriesSchema } from './response-schemas';

/** Runs an inbox call, answering its `invalid_options` as `400` and `unknown_channel` as `404`. */
function answerInboxErrors(run: () => Response): Response {
  try {
    return run();
  } catch (error) {
    if (!isMockServerError(error)) throw error;
    if (error.code === 'unknown_channel')
      return problem({
        status: 404,
        code: 'channel_not_found',
        detail: 'No inbox channel with this id.',
      });
    const issues = error.issues.map(({ path, message }) => ({ path, message }));
    return validationProblem(
      issues.length > 0 ? issues : [{ path: '(body)', message: error.message }],
    );
  }
}

const withoutUndefined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

/** `GET /_mock/inbox/channels`: every channel with how it answers and how many deliveries it holds. */
export const listInboxChannels: RouteHandler = async (_request, _params, { inbox }) =>
  json({
    data: inbox.entries().map(({ id, url, channel }) => ({
      id,
      url,
      response: channel.response,
      deliveryCount: channel.deliveries.length,
    })),
  });

/** `POST /_mock/inbox/channels`: `{ secret, response? }` → `201 { id, url }` (the secret is never returned). */
export const createInboxChannel: RouteHandler = async (request, _params, { inbox }) => {
  const body = await readValid(request, CreateInboxChannelRequestSchema);
  if (!body.ok) return body.response;
  const { secret, response } = body.value;
  return answerInboxErrors(() =>
    json(
      inbox.createChannel({
        secret,
        ...(response ? { response: withoutUndefined(response) as InboxResponse } : {}),
      }),
      201,
    ),
  );
};

/** `PUT /_mock/inbox/channels/{id}/response`: how the channel answers from now on. */
export const setInboxResponse: RouteHandler = async (request, [id], { inbox }) => {
  const body = await readValid(request, InboxResponseSchema);
  if (!body.ok) return body.response;
  return answerInboxErrors(() => {
    inbox.setResponse(id!, withoutUndefined(body.value) as InboxResponse);
    return new Response(null, { status: 204 });
  });
};

/** `GET /_mock/inbox/channels/{id}/deliveries`: oldest first, each with `verified` and `errorCode`. */
export const listInboxDeliveries: RouteHandler = async (_request, [id], { inbox }) =>
  answerInboxErrors(() => json({ data: inbox.deliveries(id!) }));

/** `DELETE /_mock/inbox/channels/{id}/deliveries`: forget them. */
export const clearInboxDeliveries: RouteHandler = async (_request, [id], { inbox }) =>
  answerInboxErrors(() => {
    inbox.clearDeliveries(id!);
    return new Response(null, { status: 204 });
  });

/**
 * `DELETE /_mock/inbox/deliveries`: the inbox page's Clear button. Forgets the deliveries of
 * every inbox channel and the triggers to external receivers; channels, webhook channels,
 * rules and alerts stay. Takes no body or query; answers `200 { deliveries, triggers }`.
 */
export const clearAllInboxDeliveries: RouteHandler = async (request, _params, context) => {
  const query = [...new URL(request.url).searchParams.keys()].filter((key) => key !== 'token');
  if (query.length > 0) {
    return validationProblem(
      query.map((key) => ({
        path: key,
        message: 'Unknown query parameter: this call takes none.',
      })),
    );
  }
  const cleared = {
    deliveries: context.inbox.clearAllDeliveries(),
    triggers: context.triggers.clear(),
  } satisfies z.input<typeof ClearedDeliveriesSchema>;
  return json(cleared);
};
