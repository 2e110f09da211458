import type { CspwatchEvent } from '../alerts/payloads';
import type { RawBody } from '../body/read-body';
import { withSecretsFromFunction } from '../secrets/secret-source';
import { resultOfAsync, type VerifyWebhookResult } from '../signature/safe';
import {
  prepareSigning,
  type SignWebhookOptions,
  toWebhookHeaders,
  type WebhookHeaders,
} from '../signature/sign';
import { parseSignatureHeader } from '../signature/signature-header';
import {
  parseVerifiedBody,
  prepareVerification,
  signatureMismatch,
  type VerifyWebhookOptions,
} from '../signature/verify';
import { createKeyCache } from './key-cache';

const encoder = new TextEncoder();
// ignoreBOM keeps a leading BOM, so bytes and the same text as a string parse alike.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const decode = (bytes: Exclude<RawBody, string>): string => decoder.decode(bytes);

const importKey = createKeyCache((secret): Promise<CryptoKey> => {
  const key = crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  return key;
});

/** Encodes `<timestamp>.<body>` into one buffer, copying the body once. */
function signedMessage(timestamp: string, body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  // A string must be encoded anyway: encoding it joined to the timestamp copies it once.
  if (typeof body === 'string') return encoder.encode(`${timestamp}.${body}`);
  const message = new Uint8Array(timestamp.length + 1 + body.length);
  encoder.encodeInto(`${timestamp}.`, message);
  message.set(body, timestamp.length + 1);
  return message;
}

async function hmac(secret: string, message: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', await importKey(secret), message));
}

/**
 * Signs a delivery body with Web Crypto, giving the headers to send with it.
 *
 * @example
 * ```ts
 * const body = JSON.stringify(alert);
 * const headers = await signWebhook({ body, secret: process.env.CSPWATCH_SECRET! });
 * await fetch(url, { method: 'POST', headers, body });
 * ```
 */
export async function signWebhook(options: SignWebhookOptions): Promise<WebhookHeaders> {
  const { body, secret, timestamp } = prepareSigning(options);
  return toWebhookHeaders(timestamp, await hmac(secret, signedMessage(timestamp, body)));
}

/**
 * Checks a delivery's headers, timestamp and signature with Web Crypto, without decoding
 * or parsing the body: for receivers that parse with their own schema. Resolves to the
 * body you passed (the same object, not a copy); throws {@link WebhookVerificationError}
 * exactly as {@link verifyWebhook} does for every header, timestamp, signature and secret
 * failure.
 *
 * @example
 * ```ts
 * const body = await verifyWebhookSignature({ body: await request.text(), headers, secret });
 * const alert = myAlertSchema.parse(JSON.parse(body));
 * ```
 */
export async function verifyWebhookSignature<TBody extends RawBody>(
  options: VerifyWebhookOptions & { body: TBody },
): Promise<TBody> {
  // A plain secret takes no extra await: only a secret function is called and awaited.
  const prepared = prepareVerification(
    typeof options?.secret === 'function' ? await withSecretsFromFunction(options) : options,
    parseSignatureHeader,
  );
  const message = signedMessage(prepared.timestamp, prepared.body);
  for (const secret of prepared.secrets) {
    // subtle.verify compares in constant time.
    const key = await importKey(secret);
    if (await crypto.subtle.verify('HMAC', key, prepared.signature, message)) return options.body;
  }
  throw signatureMismatch();
}

/**
 * Verifies a delivery with Web Crypto (every runtime) and returns its parsed payload:
 * {@link verifyWebhookSignature}, then strict UTF-8 and JSON parsing.
 * Throws {@link WebhookVerificationError} when the delivery is not genuine.
 *
 * @example
 * ```ts
 * const event = await verifyWebhook({
 *   body: await request.text(),
 *   headers: request.headers,
 *   secret: env.CSPWATCH_WEBHOOK_SECRET,
 * });
 * ```
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<CspwatchEvent> {
  return parseVerifiedBody(await verifyWebhookSignature(options), decode);
}

/**
 * {@link verifyWebhook} without exceptions: resolves to `{ ok: true, event }`, or to
 * `{ ok: false, code, message, error }` for a delivery that failed verification.
 *
 * @example
 * ```ts
 * const result = await safeVerifyWebhook({ body: await request.text(), headers, secret });
 * if (!result.ok) return new Response(result.message, { status: 400 });
 * await handle(result.event);
 * ```
 */
export function safeVerifyWebhook(options: VerifyWebhookOptions): Promise<VerifyWebhookResult> {
  return resultOfAsync(() => verifyWebhook(options));
}
