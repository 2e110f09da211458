import type { RouteHandler } from './context';

/** `POST /inbox/{channelId}`: verify, record and answer a webhook delivery. */
export const receiveDelivery: RouteHandler = (request, [channelId], { inbox }) =>
  inbox.receive(request, channelId!);

/** `GET /inbox/{channelId}/deliveries`: the recorded deliveries, as JSON. */
export const listDeliveries: RouteHandler = async (_request, [channelId], { inbox }) =>
  inbox.list(channelId!);
