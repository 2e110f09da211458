import { toRawBody } from '../body/read-body';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../constants';
import { assertValidSecret } from '../secrets/secret-rule';
import { formatSignatureHeader } from './signature-header';
import { formatTimestamp } from './timestamp';

/** What {@link signWebhook} needs. */
export interface SignWebhookOptions {
  /** The exact body that will be sent: a JSON string, or its UTF-8 bytes. */
  body: string | Uint8Array;
  /** The channel's signing secret (at least 8 characters). */
  secret: string;
  /**
   * Unix time in milliseconds to sign with.
   * @default Date.now()
   */
  timestamp?: number;
}

/**
 * The headers of a signed delivery, ready to send with the body. (A type alias, not an
 * interface, so it can be passed wherever a header record is expected.)
 */
export type WebhookHeaders = {
  /** Always `application/json`. */
  'content-type': 'application/json';
  /** Unix time in milliseconds, as ASCII digits. */
  'x-cspwatch-timestamp': string;
  /** `sha256=` + lowercase hex HMAC-SHA256 of `<timestamp>.<body>`. */
  'x-cspwatch-signature': string;
};

/** Checked signing input: the message to sign is `<timestamp>.<body>`. */
export interface PreparedSigning {
  body: string | Uint8Array;
  secret: string;
  timestamp: string;
}

/** Validates the signing options (secret length, timestamp, raw body). */
export function prepareSigning(options: SignWebhookOptions): PreparedSigning {
  const body = toRawBody(options?.body);
  assertValidSecret(options.secret);
  const timestamp = formatTimestamp(options.timestamp ?? Date.now());
  return { body, secret: options.secret, timestamp };
}

/** Builds the delivery headers from the signed timestamp and the digest bytes. */
export function toWebhookHeaders(timestamp: string, digest: Uint8Array): WebhookHeaders {
  return {
    'content-type': 'application/json',
    [TIMESTAMP_HEADER]: timestamp,
    [SIGNATURE_HEADER]: formatSignatureHeader(digest),
  } as WebhookHeaders;
}
