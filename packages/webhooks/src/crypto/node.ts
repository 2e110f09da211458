import { createHmac, createSecretKey, type Hmac, type KeyObject } from 'node:crypto';
import type { CspwatchEvent } from '../alerts/payloads';
import type { RawBody } from '../body/read-body';
import { WebhookVerificationError } from '../errors';
import { normalizeSecrets } from '../secrets/secret-rule';
import {
  secretFunctionFailed,
  type WebhookSecretFunction,
  withSecretsFromFunction,
} from '../secrets/secret-source';
import { resultOf, type VerifyWebhookResult } from '../signature/safe';
import {
  prepareSigning,
  type SignWebhookOptions,
  toWebhookHeaders,
  type WebhookHeaders,
} from '../signature/sign';
import { checkSignatureHeader } from '../signature/signature-header';
import {
  parseVerifiedBody,
  prepareVerification,
  signatureMismatch,
  type VerifyWebhookOptions,
} from '../signature/verify';
import { constantTimeEqualHex } from './constant-time';
import { createKeyCache } from './key-cache';

// ignoreBOM keeps a leading BOM, so bytes and the same text as a string parse alike.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const decode = (bytes: Exclude<RawBody, string>): string => decoder.decode(bytes);

// A cached KeyObject per secret: createHmac then skips encoding the secret string each call.
const secretKey = createKeyCache((secret): KeyObject => createSecretKey(secret, 'utf8'));

/** Calls a sync `secret` function; an async one cannot be awaited here: `invalid_secret`. */
function withSecretsNow<TOptions extends VerifyWebhookOptions>(options: TOptions): TOptions {
  if (typeof options?.secret !== 'function') return options;
  let value: ReturnType<WebhookSecretFunction>;
  try {
    value = options.secret();
  } catch (cause) {
    throw secretFunctionFailed(cause);
  }
  if (typeof (value as PromiseLike<unknown> | undefined)?.then === 'function') {
    (value as PromiseLike<unknown>).then(undefined, () => {}); // reported below, not unhandled
    throw new WebhookVerificationError(
      'invalid_secret',
      'The secret function returned a promise: the Sync functions need the secret at once',
    );
  }
  return { ...options, secret: normalizeSecrets(value) };
}

/** HMAC-SHA256 of `<timestamp>.<body>`, fed piece by piece: the body is never copied. */
function hmac(secret: string, timestamp: string, body: string | Uint8Array): Hmac {
  const mac = createHmac('sha256', secretKey(secret)).update(timestamp).update('.');
  return typeof body === 'string' ? mac.update(body, 'utf8') : mac.update(body);
}

/**
 * Signs a delivery body synchronously with node:crypto, giving the headers to send with it.
 *
 * @example
 * ```ts
 * const body = JSON.stringify(alert);
 * const headers = signWebhookSync({ body, secret: process.env.CSPWATCH_SECRET! });
 * ```
 */
export function signWebhookSync(options: SignWebhookOptions): WebhookHeaders {
  const { body, secret, timestamp } = prepareSigning(options);
  return toWebhookHeaders(timestamp, hmac(secret, timestamp, body).digest());
}

/**
 * Checks a delivery's headers, timestamp and signature synchronously with node:crypto,
 * without decoding or parsing the body. Returns the body you passed (the same object, not a
 * copy); throws {@link WebhookVerificationError} exactly as {@link verifyWebhookSync} does
 * for every header, timestamp, signature and secret failure.
 *
 * @example
 * ```ts
 * const body = verifyWebhookSignatureSync({ body: req.body, headers: req.headers, secret });
 * const alert = myAlertSchema.parse(JSON.parse(body.toString('utf8')));
 * ```
 */
export function verifyWebhookSignatureSync<TBody extends RawBody>(
  options: VerifyWebhookOptions & { body: TBody },
): TBody {
  // The checked header is compared as hex text with the hex digest: node:crypto encodes
  // hex natively, which is cheaper than decoding the header and comparing Buffers.
  const prepared = prepareVerification(withSecretsNow(options), checkSignatureHeader);
  for (const secret of prepared.secrets) {
    const digestHex = hmac(secret, prepared.timestamp, prepared.body).digest('hex');
    if (constantTimeEqualHex(prepared.signature, digestHex)) return options.body;
  }
  throw signatureMismatch();
}

/**
 * Verifies a delivery synchronously with node:crypto and returns its parsed payload:
 * {@link verifyWebhookSignatureSync}, then strict UTF-8 and JSON parsing.
 * Throws {@link WebhookVerificationError} when the delivery is not genuine.
 *
 * @example
 * ```ts
 * const event = verifyWebhookSync({ body: req.body, headers: req.headers, secret });
 * ```
 */
export function verifyWebhookSync(options: VerifyWebhookOptions): CspwatchEvent {
  return parseVerifiedBody(verifyWebhookSignatureSync(options), decode);
}

/**
 * Signs a delivery body with node:crypto (the `node` build of {@link signWebhook}).
 *
 * @example
 * ```ts
 * const headers = await signWebhook({ body, secret });
 * ```
 */
export async function signWebhook(options: SignWebhookOptions): Promise<WebhookHeaders> {
  return signWebhookSync(options);
}

/**
 * Verifies a delivery with node:crypto (the `node` build of {@link verifyWebhook}).
 *
 * @example
 * ```ts
 * const event = await verifyWebhook({ body: req.body, headers: req.headers, secret });
 * ```
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<CspwatchEvent> {
  return verifyWebhookSync(
    typeof options?.secret === 'function' ? await withSecretsFromFunction(options) : options,
  );
}

/**
 * Checks a delivery's signature with node:crypto without parsing the body (the `node`
 * build of {@link verifyWebhookSignature}). Resolves to the body you passed.
 *
 * @example
 * ```ts
 * const body = await verifyWebhookSignature({ body: req.body, headers: req.headers, secret });
 * ```
 */
export async function verifyWebhookSignature<TBody extends RawBody>(
  options: VerifyWebhookOptions & { body: TBody },
): Promise<TBody> {
  return verifyWebhookSignatureSync(
    typeof options?.secret === 'function' ? await withSecretsFromFunction(options) : options,
  );
}

/**
 * {@link verifyWebhookSync} without exceptions: `{ ok: true, event }`, or
 * `{ ok: false, code, message, error }` for a delivery that failed verification.
 *
 * @example
 * ```ts
 * const result = safeVerifyWebhookSync({ body: req.body, headers: req.headers, secret });
 * if (!result.ok) return res.status(400).json({ code: result.code });
 * ```
 */
export function safeVerifyWebhookSync(options: VerifyWebhookOptions): VerifyWebhookResult {
  return resultOf(() => verifyWebhookSync(options));
}

/**
 * {@link verifyWebhook} without exceptions (the `node` build of `safeVerifyWebhook`).
 *
 * @example
 * ```ts
 * const result = await safeVerifyWebhook({ body: req.body, headers: req.headers, secret });
 * ```
 */
export async function safeVerifyWebhook(
  options: VerifyWebhookOptions,
): Promise<VerifyWebhookResult> {
  return safeVerifyWebhookSync(
    typeof options?.secret === 'function' ? await withSecretsFromFunction(options) : options,
  );
}
