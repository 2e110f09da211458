import type { CspwatchEvent } from '@cspwatch/webhooks';

/** How an inbox channel answers verified deliveries. */
export interface InboxResponse {
  /** Status to answer with, 200 to 599 (e.g. 500, or 302 with `location`). @default 200 */
  status?: number;
  /** `Location` header to send, e.g. with a 302. */
  location?: string;
  /** Never answer: the request stays open until the client gives up, `reset()` or `close()`. @default false */
  hang?: boolean;
}

/** Options of {@link MockInbox.createChannel}. */
export interface CreateChannelOptions {
  /** The channel's signing secret (at least 8 characters), or several during rotation. */
  secret: string | readonly string[];
  /** How to answer verified deliveries. @default { status: 200 } */
  response?: InboxResponse;
}

/** An inbox channel: where to point the sender. */
export interface InboxChannel {
  /** Channel id. */
  id: string;
  /** `${baseUrl}/inbox/${id}`: the URL to deliver to. */
  url: string;
}

/** One delivery the inbox received, as recorded for inspection. */
export interface InboxDelivery {
  /** When it arrived (ISO 8601). */
  receivedAt: string;
  /** Request headers, names lower-cased. */
  headers: Record<string, string>;
  /** The raw body as text (UTF-8). */
  rawBody: string;
  /** Whether `verifyWebhook` accepted it with the channel's secret and it was not a replay. */
  verified: boolean;
  /** The `WebhookVerificationError` code when refused, e.g. `signature_mismatch` or `replayed_delivery`. */
  errorCode?: string;
  /** The parsed event when verified. */
  event?: CspwatchEvent;
  /** The status answered, or `null` when the inbox hung. */
  status: number | null;
}

/**
 * A webhook inbox: channels that receive deliveries, verify them with `@cspwatch/webhooks`
 * against the channel's secret, record them, and answer as configured (2xx, 500, 302, or
 * hang), so a sender's failure handling can be tested end to end. Verified deliveries get
 * the configured answer; the others are refused as the `@cspwatch/webhooks` adapters refuse
 * them: `400` problem+json with the check that failed (`signature_mismatch`,
 * `timestamp_too_old`, …), `409 replayed_delivery` for a signed request received before
 * (a 5xx or hung answer frees it, so the same request may come again).
 *
 * @example
 * ```ts
 * const channel = server.service.inbox.createChannel({ secret: 'whsec-test-1234' });
 * await sender.deliver(channel.url, alert);
 * expect(server.service.inbox.deliveries(channel.id)[0]?.verified).toBe(true);
 * ```
 */
export interface MockInbox {
  /** Creates a channel and returns the URL to deliver to. Throws `invalid_options` for a short secret or a bad response. */
  createChannel(options: CreateChannelOptions): InboxChannel;
  /** Changes how a channel answers from now on. Throws `unknown_channel`. */
  setResponse(id: string, response: InboxResponse): void;
  /** The deliveries a channel received, oldest first (copies). Throws `unknown_channel`. */
  deliveries(id: string): InboxDelivery[];
  /** Forgets a channel's recorded deliveries. Throws `unknown_channel`. */
  clearDeliveries(id: string): void;
  /** Ends every hung request as a dropped connection (e.g. in test teardown); channels and deliveries stay. */
  releaseHanging(): void;
}
