/**
 * The service's own webhook channels (docs/webhook-sender-reference.md, Channels): validated, stored, delivered to and
 * auto-disabled by `@cspwatch/webhook-sender`, whose channel state store holds the failure
 * count and the disabled flag. Secrets are never returned: views carry `secretPreview`.
 */
import {
  type ChannelStateStore,
  createMemoryChannelStateStore,
  createWebhookChannel,
  createWebhookSender,
  type DeliveryResult,
  toWebhookChannelView,
  updateWebhookChannel,
  type WebhookChannel,
  type WebhookChannelPatch,
  type WebhookChannelView,
  type WebhookSender,
} from '@cspwatch/webhook-sender';

/** A webhook channel of the mock service as the control API shows it (never the secret). */
export interface MockWebhookChannel {
  /** Channel id. */
  id: string;
  /** Always `Webhook`. */
  type: WebhookChannelView['type'];
  /** Display name. */
  name: string;
  /** Delivery URL. */
  url: string;
  /** The secret masked: `********` and, for a secret of 16 characters or more, its last four. */
  secretPreview: string;
  /** `false` once the channel disabled itself after five failures, or was disabled by hand. */
  enabled: boolean;
  /** Consecutive failed deliveries. */
  consecutiveFailures: number;
}

/** Fields of a new channel; `id` is generated (`wh_` + UUID) when absent. */
export interface MockWebhookChannelInput {
  /** Channel id. */
  id?: string;
  /** Display name. */
  name: string;
  /** Delivery URL: https on a public host, or loopback when the mock allows it. */
  url: string;
  /** Signing secret, at least 8 characters. */
  secret: string;
  /** Start enabled. @default true */
  enabled?: boolean;
}

/** The channels and the sender that delivers to them. */
export class WebhookChannels {
  readonly #allowLoopback: boolean;
  readonly #channels = new Map<string, WebhookChannel>();
  #states!: ChannelStateStore;
  #sender!: WebhookSender;

  /** `dangerouslyAllowLoopback` is passed to the sender's target policy as is. */
  constructor(dangerouslyAllowLoopback: boolean) {
    this.#allowLoopback = dangerouslyAllowLoopback;
    this.clear();
  }

  /** The sender; its state store is replaced on {@link WebhookChannels.clear}. */
  get sender(): WebhookSender {
    return this.#sender;
  }

  /** Removes every channel and starts a fresh sender and state store. */
  clear(): void {
    void this.#sender?.close();
    this.#channels.clear();
    this.#states = createMemoryChannelStateStore();
    this.#sender = createWebhookSender({
      store: this.#states,
      dangerouslyAllowLoopback: this.#allowLoopback,
      timeoutMs: 5000,
    });
  }

  /** Validates and adds a channel; throws the sender's `invalid_channel` error. */
  async create(input: MockWebhookChannelInput): Promise<MockWebhookChannel> {
    const { id, name, url, secret } = input;
    const channel = createWebhookChannel(
      { name, url, secret },
      { ...(id === undefined ? {} : { id }), dangerouslyAllowLoopback: this.#allowLoopback },
    );
    return this.add(channel, input.enabled ?? true);
  }

  /** Adds an already validated channel. */
  async add(channel: WebhookChannel, enabled: boolean): Promise<MockWebhookChannel> {
    this.#channels.set(channel.id, channel);
    if (!enabled) await this.#states.disable(channel.id);
    return this.#view(channel);
  }

  /** Edits a channel (an empty secret keeps it); `enabled: true` also resets the failure count. */
  async update(
    id: string,
    patch: WebhookChannelPatch & { enabled?: boolean },
  ): Promise<MockWebhookChannel | undefined> {
    const current = this.#channels.get(id);
    if (!current) return undefined;
    const { enabled, ...fields } = patch;
    const next = updateWebhookChannel(current, fields, {
      dangerouslyAllowLoopback: this.#allowLoopback,
    });
    this.#channels.set(id, next);
    if (enabled === true) await this.#sender.enable(id);
    if (enabled === false) await this.#states.disable(id);
    return this.#view(next);
  }

  /**
   * The Test action: sends one signed sample alert to the channel at once, whatever its
   * state, and changes neither its failure count nor its state; `undefined` for an unknown id.
   */
  async test(id: string): Promise<DeliveryResult | undefined> {
    const channel = this.#channels.get(id);
    return channel ? this.#sender.sendTest(channel) : undefined;
  }

  /** Removes a channel; returns whether it existed. */
  remove(id: string): boolean {
    return this.#channels.delete(id);
  }

  /** The channel with its secret, for delivery. */
  get(id: string): WebhookChannel | undefined {
    return this.#channels.get(id);
  }

  /** Every channel, in creation order. */
  async list(): Promise<MockWebhookChannel[]> {
    return Promise.all([...this.#channels.values()].map((channel) => this.#view(channel)));
  }

  async #view(channel: WebhookChannel): Promise<MockWebhookChannel> {
    const state = await this.#states.get(channel.id);
    return {
      ...toWebhookChannelView(channel),
      enabled: !state.disabled,
      consecutiveFailures: state.consecutiveFailures,
    };
  }
}
