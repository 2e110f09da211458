import { CspwatchIssuesError, formatIssues, hasErrorKind, type Issue } from '@cspwatch/internal';

/**
 * Why a delivery failed verification. Stable snake_case identifiers to `switch` on.
 *
 * | code | meaning |
 * |---|---|
 * | `missing_header` | the timestamp or signature header is absent or empty |
 * | `malformed_timestamp` | the timestamp header is not ASCII digits (Unix milliseconds) |
 * | `malformed_signature` | the signature header is not `sha256=` + 64 lowercase hex characters |
 * | `timestamp_too_old` | the timestamp is further in the past than the tolerance |
 * | `timestamp_in_future` | the timestamp is further in the future than the tolerance |
 * | `signature_mismatch` | no secret produces the signature (wrong secret, or a changed body) |
 * | `invalid_json` | the signature is valid but the body is not a JSON alert object |
 * | `invalid_secret` | a secret is not a string of at least 8 characters |
 * | `body_not_raw` | the body was already parsed; the exact raw bytes are needed |
 * | `body_not_well_formed` | a string body holds a lone surrogate: it is not the text of any bytes |
 * | `body_too_large` | an adapter stopped reading a body larger than its `maxBodyBytes` |
 * | `body_read_failed` | the body stream failed while being read (`cause` says why) |
 * | `invalid_options` | `verifyWebhook`, the replay guard, a memory replay store or an adapter was given an invalid option (or none) |
 * | `replayed_delivery` | the replay guard already accepted this delivery (or this alert `id`) |
 * | `replay_store_unavailable` | the replay store could not record the delivery (full, or down): refused, not accepted |
 */
export type WebhookVerificationErrorCode =
  | 'missing_header'
  | 'malformed_timestamp'
  | 'malformed_signature'
  | 'timestamp_too_old'
  | 'timestamp_in_future'
  | 'signature_mismatch'
  | 'invalid_json'
  | 'invalid_secret'
  | 'body_not_raw'
  | 'body_not_well_formed'
  | 'body_too_large'
  | 'body_read_failed'
  | 'invalid_options'
  | 'replayed_delivery'
  | 'replay_store_unavailable';

/**
 * Thrown when a webhook delivery cannot be verified, or when signing is given bad input.
 * The message says what to check; it never contains a secret. With `invalid_options`,
 * `issues` lists each option that is wrong and what to fix, as the other cspwatch packages
 * report them (frozen; empty for the other codes). Built as
 * `new WebhookVerificationError(code, message, { cause, issues })`.
 *
 * `instanceof` works across two installed copies of the package (and across the Node and
 * Web builds, and with errors of earlier releases), because it checks a `Symbol.for` marker.
 *
 * @example
 * ```ts
 * try {
 *   await verifyWebhook({ body, headers, secret });
 * } catch (error) {
 *   if (isWebhookVerificationError(error)) console.warn(error.code, error.message);
 *   else throw error;
 * }
 * ```
 */
export class WebhookVerificationError extends CspwatchIssuesError<WebhookVerificationErrorCode> {
  /** The marker `instanceof` and {@link isWebhookVerificationError} recognise. */
  static readonly kind: string = '@cspwatch/webhooks.WebhookVerificationError';
  /** Always `'WebhookVerificationError'`. */
  override readonly name = 'WebhookVerificationError' as const;
}

/**
 * Tells whether a value is a {@link WebhookVerificationError}, from this or any other copy
 * of the package.
 *
 * @example
 * ```ts
 * if (isWebhookVerificationError(error) && error.code === 'timestamp_too_old') retryLater();
 * ```
 */
export function isWebhookVerificationError(value: unknown): value is WebhookVerificationError {
  return hasErrorKind(value, WebhookVerificationError.kind);
}

/**
 * The receiver's own setup mistakes in its options: `invalid_options`, its message listing
 * each issue (`path: what to fix`) as every cspwatch package writes them.
 */
export function invalidOptions(...issues: Issue[]): WebhookVerificationError {
  return new WebhookVerificationError('invalid_options', formatIssues(issues), { issues });
}

/** The codes that describe the receiver's own setup, not the delivery it was sent. */
const SETUP_CODES: ReadonlySet<WebhookVerificationErrorCode> = new Set([
  'invalid_secret',
  'invalid_options',
  'body_not_raw',
]);

/**
 * Tells a receiver's own setup mistake (no secret or a short one — usually an unset
 * environment variable —, invalid options, a body parser that ran first) from a bad delivery.
 * Such an error is not the sender's fault: rethrow it, so it is a 500 in your logs. Answered
 * as a 400, it would look like forged deliveries, and the sender would disable the channel
 * after five of them. The adapters and `safeVerifyWebhook` already treat it so.
 *
 * @example
 * ```ts
 * } catch (error) {
 *   if (!isWebhookVerificationError(error) || isReceiverSetupError(error)) throw error;
 *   return new Response(error.code, { status: 400 }); // a delivery that failed verification
 * }
 * ```
 */
export function isReceiverSetupError(error: unknown): boolean {
  return isWebhookVerificationError(error) && SETUP_CODES.has(error.code);
}
