import {
  type CspwatchEvent,
  createReplayGuard,
  isWebhookVerificationError,
  type ReplayClaim,
  verifyWebhook,
  WebhookVerificationError,
} from '@cspwatch/webhooks';
import { createProblemResponse } from '@cspwatch/webhooks/fetch';
import { MockServerError } from '../errors';
import { disconnectSignal } from '../http/disconnect';
import { json, problem } from '../http/problem';
import { readBody } from '../http/request-body';
import { type Channel, checkResponse, checkSecret } from './options';
import type {
  CreateChannelOptions,
  InboxChannel,
  InboxDelivery,
  InboxResponse,
  MockInbox,
} from './types';

const channelNotFound = (): Response =>
  problem({ status: 404, code: 'channel_not_found', detail: 'No inbox channel with this id.' });

/** The implementation of {@link MockInbox}, plus the two routes it serves. */
export class Inbox implements MockInbox {
  readonly #baseUrl: string;
  readonly #channels = new Map<string, Channel>();
  readonly #hanging = new Set<() => void>();
  readonly #onChange: () => void;

  /** Creates an empty inbox whose channel URLs start with `baseUrl`; `onChange` runs after each change. */
  constructor(baseUrl: string, onChange: () => void = () => {}) {
    this.#baseUrl = baseUrl;
    this.#onChange = onChange;
  }

  /** Every channel, oldest first, with its deliveries (live objects: do not mutate). */
  entries(): { id: string; url: string; channel: Readonly<Channel> }[] {
    return [...this.#channels].map(([id, channel]) => ({
      id,
      url: `${this.#baseUrl}/inbox/${id}`,
      channel,
    }));
  }

  /**
   * Creates a channel and returns the URL to deliver to.
   *
   * @example
   * ```ts
   * const channel = server.service.inbox.createChannel({ secret: 'whsec-test-1234' });
   * // point the sender at channel.url
   * ```
   */
  createChannel(options: CreateChannelOptions): InboxChannel {
    if (typeof options !== 'object' || options === null) {
      throw new MockServerError('invalid_options', 'createChannel expects { secret, response? }.');
    }
    const channel: Channel = {
      secret: checkSecret(options.secret),
      response: checkResponse(options.response),
      deliveries: [],
      replayGuard: createReplayGuard(),
    };
    const id = `ch_${[...crypto.getRandomValues(new Uint8Array(10))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
    this.#channels.set(id, channel);
    this.#onChange();
    return { id, url: `${this.#baseUrl}/inbox/${id}` };
  }

  /** Changes how a channel answers from now on. */
  setResponse(id: string, response: InboxResponse): void {
    this.#channel(id).response = checkResponse(response);
  }

  /** The deliveries a channel received, oldest first (copies). */
  deliveries(id: string): InboxDelivery[] {
    return structuredClone(this.#channel(id).deliveries);
  }

  /** Forgets a channel's recorded deliveries. */
  clearDeliveries(id: string): void {
    this.#channel(id).deliveries = [];
    this.#onChange();
  }

  /** Removes every channel and releases every hung request. */
  reset(): void {
    this.releaseHanging();
    this.#channels.clear();
    this.#onChange();
  }

  /** See {@link MockInbox.releaseHanging}; no timer is involved. */
  releaseHanging(): void {
    for (const release of [...this.#hanging]) release();
  }

  #channel(id: string): Channel {
    const channel = this.#channels.get(id);
    if (!channel)
      throw new MockServerError(
        'unknown_channel',
        `No inbox channel with id ${JSON.stringify(id)}.`,
      );
    return channel;
  }

  /** Forgets every channel's recorded deliveries (channels stay); returns how many were forgotten. */
  clearAllDeliveries(): number {
    let cleared = 0;
    for (const channel of this.#channels.values()) {
      cleared += channel.deliveries.length;
      channel.deliveries = [];
    }
    this.#onChange();
    return cleared;
  }

  /**
   * `POST /inbox/{id}`: verify, refuse a replay, record, answer. Refusals are answered as the
   * `@cspwatch/webhooks` adapters answer them (400, 409 for a replay), by their own function.
   */
  async receive(request: Request, id: string): Promise<Response> {
    const channel = this.#channels.get(id);
    if (!channel) return channelNotFound();
    const body = await readBody(request);
    if (!body.ok) return body.response;
    const delivery: InboxDelivery = {
      receivedAt: new Date().toISOString(),
      headers: Object.fromEntries(request.headers),
      rawBody: new TextDecoder().decode(body.bytes),
      verified: false,
      status: null,
    };
    const checked = await this.#check(channel, body.bytes, request.headers);
    if (checked instanceof WebhookVerificationError) {
      const response = createProblemResponse(checked);
      delivery.errorCode = checked.code;
      delivery.status = response.status;
      channel.deliveries.push(delivery);
      this.#onChange();
      return response;
    }
    const { event, claim } = checked;
    delivery.event = event;
    delivery.verified = true;
    channel.deliveries.push(delivery);
    this.#onChange();
    const { status, location, hang } = channel.response;
    // As the adapters do: a delivery the handler did not take (5xx, no answer) may come again.
    if (hang || status >= 500) await claim.release();
    if (hang) return this.#hang(request);
    delivery.status = status;
    this.#onChange();
    const headers: Record<string, string> = location === undefined ? {} : { location };
    return [204, 205, 304].includes(status)
      ? new Response(null, { status, headers })
      : json({ received: true }, status, headers);
  }

  /** Verifies a delivery and claims it in the channel's replay guard; the refusal otherwise. */
  async #check(
    channel: Channel,
    body: Uint8Array,
    headers: Headers,
  ): Promise<{ event: CspwatchEvent; claim: ReplayClaim } | WebhookVerificationError> {
    try {
      const event = await verifyWebhook({ body, headers, secret: channel.secret });
      return { event, claim: await channel.replayGuard.claim(event, headers) };
    } catch (error) {
      if (isWebhookVerificationError(error)) return error;
      throw error;
    }
  }

  #hang(request: Request): Promise<Response> {
    const signal = disconnectSignal(request);
    return new Promise((resolve) => {
      const release = (): void => {
        signal.removeEventListener('abort', release);
        this.#hanging.delete(release);
        resolve(Response.error());
      };
      if (signal.aborted) return release();
      signal.addEventListener('abort', release);
      this.#hanging.add(release);
    });
  }

  /** `GET /inbox/{id}/deliveries`. */
  list(id: string): Response {
    const channel = this.#channels.get(id);
    if (!channel) return channelNotFound();
    return json({ data: channel.deliveries });
  }
}
