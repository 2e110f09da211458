import { issue } from '@cspwatch/internal';
import { type CspwatchEvent, invalidJson, parsePayload } from '../alerts/payloads';
import { type RawBody, toRawBody } from '../body/read-body';
import { DEFAULT_TOLERANCE_MS, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../constants';
import { invalidOptions, WebhookVerificationError } from '../errors';
import { normalizeSecrets } from '../secrets/secret-rule';
import type { WebhookSecret } from '../secrets/secret-source';
import { readHeader, type WebhookHeadersInput } from './headers';
import { assertFreshTimestamp, parseTimestamp } from './timestamp';

/** Names of the two signature headers, for deployments that use another prefix. */
export interface WebhookHeaderNames {
  /**
   * Header carrying the timestamp.
   * @default 'x-cspwatch-timestamp'
   */
  timestamp?: string;
  /**
   * Header carrying the signature.
   * @default 'x-cspwatch-signature'
   */
  signature?: string;
}

/** How to check a delivery, without the delivery itself (what the adapters take). */
export interface VerifyOptions {
  /**
   * The channel's signing secret, or several during rotation (any match passes), or a
   * function that gives them per request (sync or async; see `WebhookSecretFunction`),
   * so a module that creates an adapter loads without the secret: `next build` does.
   * A secret is checked when an adapter is created; a function's result, at each request.
   * The synchronous `…Sync` functions of `@cspwatch/webhooks/node` take a sync function only.
   */
  secret: WebhookSecret;
  /**
   * Largest accepted distance between now and the delivery timestamp, in ms, either way: a
   * finite number `>= 0` (`Infinity` would switch the check off: `invalid_options`).
   * @default 300000
   */
  toleranceMs?: number;
  /**
   * Clock in Unix milliseconds; inject one in tests.
   * @default Date.now
   */
  now?: () => number;
  /** Override the header names. */
  headerNames?: WebhookHeaderNames;
}

/** What {@link verifyWebhook} needs: the delivery exactly as received, and how to check it. */
export interface VerifyWebhookOptions extends VerifyOptions {
  /** The raw request body: the exact bytes received, or them as text. Never a parsed object. */
  body: RawBody;
  /** The request headers: Fetch `Headers`, Node's `IncomingHttpHeaders`, or a plain object. */
  headers: WebhookHeadersInput;
}

/**
 * A delivery whose headers are well formed and fresh; only the HMAC remains to check.
 * A `secret` function must have been called first (`withSecretsFromFunction`).
 */
export interface PreparedVerification<TSignature> {
  secrets: readonly string[];
  timestamp: string;
  /** The signature header as the backend read it: decoded bytes, or the checked text. */
  signature: TSignature;
  body: string | Uint8Array;
}

/**
 * Checks options, reads both headers, parses them and checks the timestamp window:
 * everything but the HMAC, which each crypto backend computes its own way.
 * `readSignature` checks the signature header (and throws `malformed_signature`) in the
 * form the backend compares: bytes for Web Crypto, lowercase hex text for node:crypto.
 */
export function prepareVerification<TSignature>(
  options: VerifyWebhookOptions,
  readSignature: (value: string, headerName: string) => TSignature,
): PreparedVerification<TSignature> {
  const settings = checkVerifyOptions(options);
  const body = toRawBody(options.body);
  const secrets = normalizeSecrets(options.secret);
  const timestampValue = readHeader(options.headers, settings.timestampHeader);
  if (timestampValue === undefined) throw missingHeader(settings.timestampHeader);
  const signatureValue = readHeader(options.headers, settings.signatureHeader);
  if (signatureValue === undefined) throw missingHeader(settings.signatureHeader);
  const timestamp = parseTimestamp(timestampValue, settings.timestampHeader);
  const signature = readSignature(signatureValue, settings.signatureHeader);
  assertFreshTimestamp(timestamp, settings.now(), settings.toleranceMs);
  return { secrets, timestamp: timestampValue, signature, body };
}

/** The error for an HMAC that no secret reproduces. */
export function signatureMismatch(): WebhookVerificationError {
  return new WebhookVerificationError(
    'signature_mismatch',
    'Signature mismatch: check the raw body (not re-serialised JSON) and the secret',
  );
}

/** Parses a body whose signature was checked: decodes bytes as strict UTF-8, then JSON. */
export function parseVerifiedBody(
  body: RawBody,
  decode: (bytes: Exclude<RawBody, string>) => string,
): CspwatchEvent {
  if (typeof body === 'string') return parsePayload(body);
  let text: string;
  try {
    text = decode(body);
  } catch (error) {
    throw invalidJson(error);
  }
  return parsePayload(text);
}

function missingHeader(name: string): WebhookVerificationError {
  return new WebhookVerificationError('missing_header', `Missing ${name} header`);
}

interface VerifySettings {
  toleranceMs: number;
  now: () => number;
  timestampHeader: string;
  signatureHeader: string;
}

/**
 * Validates the options that are programming choices (not delivery data): `invalid_options`.
 * An infinite tolerance is refused: it would switch the freshness check off, and a captured
 * delivery would verify forever.
 */
export function checkVerifyOptions(options: VerifyOptions): VerifySettings {
  const toleranceMs = options?.toleranceMs ?? DEFAULT_TOLERANCE_MS;
  const toleranceValid = Number.isFinite(toleranceMs) && toleranceMs >= 0;
  if (typeof options !== 'object' || !options || !toleranceValid) {
    throw invalidOptions(
      toleranceValid
        ? issue('(options)', 'not_an_object', 'pass the options: { body, headers, secret }')
        : issue('toleranceMs', 'out_of_range', 'must be a number of ms >= 0'),
    );
  }
  return {
    toleranceMs,
    now: options.now ?? Date.now,
    timestampHeader: options.headerNames?.timestamp?.toLowerCase() ?? TIMESTAMP_HEADER,
    signatureHeader: options.headerNames?.signature?.toLowerCase() ?? SIGNATURE_HEADER,
  };
}
