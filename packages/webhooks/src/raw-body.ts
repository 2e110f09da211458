import { WebhookVerificationError } from './errors';

/** A request body exactly as received: text, or the bytes themselves (a `Buffer` is a `Uint8Array`). */
export type RawBody = string | Uint8Array;

/**
 * Accepts a raw body (string, or `Uint8Array`/`Buffer`) and refuses anything
 * else, above all a body that a framework already parsed into an object.
 */
export function toRawBody(body: unknown): string | Uint8Array {
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  throw new WebhookVerificationError(
    'body_not_raw',
    // Named by its kind only: the value could be anything, a secret included.
    `Pass the raw body (string or bytes), not ${typeof body === 'object' && body !== null ? 'a parsed object' : typeof body}: ` +
      "the signature covers the exact bytes. Express: express.raw({ type: 'application/json' }) " +
      'or express.json({ verify }) keeping req.rawBody. Next.js: await request.text() ' +
      '(Pages Router: bodyParser: false).',
  );
}
