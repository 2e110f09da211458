import { verifyWebhook } from '../crypto/web';
import { WebhookVerificationError } from '../errors';
import type { CspwatchEvent } from '../payloads';
import type { VerifyOptions } from '../verify';

/** The parts of a Fetch `Request` that verification reads. */
export interface RequestLike {
  /** The request headers. */
  readonly headers: {
    /** Returns the header's value, or `null` when it is absent. */
    get(name: string): string | null;
  };
  /** Reads the body as bytes (exactly as received). */
  arrayBuffer(): Promise<ArrayBuffer>;
}

/**
 * Verifies a Fetch `Request` (Hono, Bun.serve, Deno.serve, Cloudflare Workers, Next.js)
 * and returns its parsed alert. Reads the body as bytes, so call it before anything else
 * reads the body (or pass `request.clone()`). Throws {@link WebhookVerificationError}.
 *
 * @example
 * ```ts
 * export default {
 *   async fetch(request: Request, env: Env) {
 *     try {
 *       const event = await verifyRequest(request, { secret: env.CSPWATCH_WEBHOOK_SECRET });
 *       await handle(event);
 *       return new Response(null, { status: 204 });
 *     } catch (error) {
 *       if (isWebhookVerificationError(error)) return createProblemResponse(error);
 *       throw error;
 *     }
 *   },
 * };
 * ```
 */
export async function verifyRequest(
  request: RequestLike,
  options: VerifyOptions,
): Promise<CspwatchEvent> {
  let body: Uint8Array;
  try {
    body = new Uint8Array(await request.arrayBuffer());
  } catch (error) {
    throw new WebhookVerificationError(
      'body_not_raw',
      'Could not read the request body: it was probably read already. Verify before reading ' +
        'the body, or pass request.clone().',
      { cause: error },
    );
  }
  return verifyWebhook({ ...options, body, headers: request.headers });
}
