import {
  type CspwatchEvent,
  isWebhookVerificationError,
  verifyWebhookSync,
} from '@cspwatch/webhooks/node';
import { startReceiver } from './receiver';

/** How an inbox channel answers a verified delivery. */
export interface InboxResponse {
  /** @default 200 */
  status?: number;
  /** A `location` header to send (for redirects). */
  location?: string;
  /** Never answer; the connection is dropped when the inbox closes. */
  hang?: boolean;
}

/** One delivery an inbox channel received, verified with `@cspwatch/webhooks`. */
export interface InboxDelivery {
  /** Request headers, names lower-cased. */
  headers: Record<string, string>;
  rawBody: string;
  verified: boolean;
  /** The verification error's code when it was refused (the channel then answers 401). */
  errorCode?: string;
  /** The parsed event when verified. */
  event?: CspwatchEvent;
}

/**
 * A webhook inbox on 127.0.0.1:0 for the sender's own tests: each channel verifies what it
 * receives with its secret, records it and answers as told. (The mock server has the full
 * inbox; the sender cannot depend on it, since the mock depends on the sender.)
 */
export async function startInbox() {
  const channels = new Map<
    string,
    { secret: string; response: InboxResponse; deliveries: InboxDelivery[] }
  >();
  const receiver = await startReceiver((request, res) => {
    const channel = channels.get(request.url.replace('/inbox/', ''));
    if (!channel) return void res.writeHead(404).end();
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
    );
    const delivery: InboxDelivery = {
      headers,
      rawBody: request.body.toString('utf8'),
      verified: false,
    };
    channel.deliveries.push(delivery);
    try {
      delivery.event = verifyWebhookSync({ body: request.body, headers, secret: channel.secret });
      delivery.verified = true;
    } catch (error) {
      delivery.errorCode = isWebhookVerificationError(error) ? error.code : 'unexpected_error';
      return void res.writeHead(401).end();
    }
    const { status = 200, location, hang } = channel.response;
    if (hang) return;
    res.writeHead(status, location === undefined ? {} : { location }).end();
  });
  let next = 0;
  return {
    /** Adds a channel; its URL is `<inbox>/inbox/<id>`. */
    createChannel({ secret, response = {} }: { secret: string; response?: InboxResponse }) {
      const id = `ch_${++next}`;
      channels.set(id, { secret, response, deliveries: [] });
      return { id, url: `${receiver.url}/inbox/${id}` };
    },
    /** Changes how a channel answers from now on. */
    setResponse(id: string, response: InboxResponse) {
      const channel = channels.get(id);
      if (channel) channel.response = response;
    },
    /** What a channel received, oldest first. */
    deliveries(id: string): InboxDelivery[] {
      return channels.get(id)?.deliveries ?? [];
    },
    close: () => receiver.close(),
  };
}
