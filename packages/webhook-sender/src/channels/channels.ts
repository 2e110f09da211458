/**
 * Webhook channels (docs/webhook-sender-reference.md, "Channels"): validation on create and edit, and the public view. JSON field
 * names: `id`, `type` (`"Webhook"`), `name`, `url`, `secret` (write-only) and `secretPreview`
 * (read-only, masked). The secret is a non-enumerable property of a channel, so
 * `JSON.stringify` and `console.log` of a channel never show it.
 */
import { randomUUID } from 'node:crypto';
import { type ValidationIssue, WebhookSenderError } from '../errors';
import {
  type ChannelValidationOptions,
  checkName,
  checkSecret,
  checkShape,
  checkUrl,
} from './channel-fields';

/** Fields to create a channel; `type` may be given and must then be `"Webhook"`. */
export interface WebhookChannelInput {
  /** Display name, 1 to 255 characters after trimming, no control characters. */
  readonly name: string;
  /** An https URL on a public host (checked by the static target policy). */
  readonly url: string;
  /** Signing secret, at least 8 code points, well-formed Unicode. Write-only. */
  readonly secret: string;
  /** Channel type; only `"Webhook"` is handled here. */
  readonly type?: 'Webhook';
}

/** Fields to edit; absent fields are kept, and an empty `secret` keeps the current secret. */
export type WebhookChannelPatch = Partial<WebhookChannelInput>;

/** A validated channel. `secret` is non-enumerable: read it explicitly to persist it. */
export interface WebhookChannel {
  /** Channel identifier (`wh_` + UUID unless given). */
  readonly id: string;
  /** Always `"Webhook"`. */
  readonly type: 'Webhook';
  /** Display name, trimmed. */
  readonly name: string;
  /** The URL as the WHATWG parser serialised it: exactly what is delivered to. */
  readonly url: string;
  /** The signing secret (non-enumerable; never returned by the API, never logged). */
  readonly secret: string;
}

/** What the API returns for a channel: no secret, only a masked preview. */
export interface WebhookChannelView {
  /** Channel identifier. */
  readonly id: string;
  /** Always `"Webhook"`. */
  readonly type: 'Webhook';
  /** Display name. */
  readonly name: string;
  /** Delivery URL. */
  readonly url: string;
  /** Masked secret, see {@link maskSecret}. */
  readonly secretPreview: string;
}

function build(id: string, name: string, url: string, secret: string): WebhookChannel {
  const channel = { id, type: 'Webhook' as const, name, url };
  Object.defineProperty(channel, 'secret', { value: secret, enumerable: false });
  return Object.freeze(channel) as WebhookChannel;
}

/**
 * Validates a new channel; throws `WebhookSenderError` `invalid_channel` listing every problem.
 *
 * @example
 * ```ts
 * const channel = createWebhookChannel({ name: 'Ops', url: 'https://hooks.example.com/csp', secret: process.env.SECRET! });
 * ```
 */
export function createWebhookChannel(
  input: WebhookChannelInput,
  options: ChannelValidationOptions = {},
): WebhookChannel {
  const issues: ValidationIssue[] = [];
  const record = checkShape(input, issues);
  const name = checkName(record.name, issues);
  const url = checkUrl(record.url, issues, options);
  const secret = checkSecret(record.secret, issues);
  if (issues.length > 0) throw new WebhookSenderError('invalid_channel', issues);
  return build(options.id ?? `wh_${randomUUID()}`, name, url, secret);
}

/**
 * Validates an edit and returns the edited channel. Absent fields keep their value; an empty or
 * absent `secret` keeps the current secret.
 *
 * @example
 * ```ts
 * const renamed = updateWebhookChannel(channel, { name: 'Ops alerts', secret: '' }); // secret kept
 * ```
 */
export function updateWebhookChannel(
  channel: WebhookChannel,
  patch: WebhookChannelPatch,
  options: Omit<ChannelValidationOptions, 'id'> = {},
): WebhookChannel {
  const issues: ValidationIssue[] = [];
  const record = checkShape(patch, issues);
  const name = record.name === undefined ? channel.name : checkName(record.name, issues);
  const url = record.url === undefined ? channel.url : checkUrl(record.url, issues, options);
  const keep = record.secret === undefined || record.secret === '';
  const secret = keep ? channel.secret : checkSecret(record.secret, issues);
  if (issues.length > 0) throw new WebhookSenderError('invalid_channel', issues);
  return build(channel.id, name, url, secret);
}

/**
 * Masks a secret for display: eight `*`, then the last four characters only when the secret
 * has at least 16 (so a short secret reveals nothing, and the length never shows).
 *
 * @example
 * ```ts
 * maskSecret('whsec_0123456789abcdef'); // '********cdef'
 * ```
 */
export function maskSecret(secret: string): string {
  const points = [...secret];
  return points.length >= 16 ? `********${points.slice(-4).join('')}` : '********';
}

/**
 * The API view of a channel: every field but the secret, plus `secretPreview`.
 *
 * @example
 * ```ts
 * res.json(toWebhookChannelView(channel));
 * ```
 */
export function toWebhookChannelView(channel: WebhookChannel): WebhookChannelView {
  const { id, type, name, url } = channel;
  return { id, type, name, url, secretPreview: maskSecret(channel.secret) };
}
