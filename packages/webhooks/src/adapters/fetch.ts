import type { CspwatchEvent } from '../alerts/payloads';
import { checkMaxBodyBytes, type RequestLike, readRequestBody } from '../body/read-body';
import { verifyWebhook } from '../crypto/web';
import { rememberClaim } from '../replay/claims';
import type { ReplayGuard } from '../replay/guard';
import type { VerifyOptions } from '../signature/verify';
import { checkReplayGuard } from './replay';

/** Options of {@link verifyRequest}. */
export interface VerifyRequestOptions extends VerifyOptions {
  /**
   * Largest body read, in bytes: a larger `content-length` is refused before reading, and
   * reading stops (the stream is cancelled) once the count passes it.
   * @default 1048576
   */
  maxBodyBytes?: number;
  /**
   * A guard from `createReplayGuard()` (made once; give it your `toleranceMs` if you changed
   * it, so its claims outlive every fresh timestamp): the verified delivery is claimed, and one
   * claimed before is refused with `replayed_delivery`. Release the claim with
   * `releaseReplayClaim(event)` when your handler fails, so the sender's retry is accepted.
   */
  replay?: ReplayGuard;
}

/**
 * Verifies a Fetch `Request` (Hono, Bun.serve, Deno.serve, Cloudflare Workers, Next.js)
 * and returns its parsed alert. Reads the body stream itself, up to `maxBodyBytes`
 * (default 1 MiB; more is `body_too_large`), so call it before anything else reads the
 * body (or pass `request.clone()`). Throws `WebhookVerificationError` (from the main entry).
 *
 * @example
 * ```ts
 * export default {
 *   async fetch(request: Request, env: Env) {
 *     try {
 *       const secret = () => env.CSPWATCH_WEBHOOK_SECRET;
 *       const event = await verifyRequest(request, { secret });
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
  options: VerifyRequestOptions,
): Promise<CspwatchEvent> {
  const guard = checkReplayGuard(options.replay);
  const body = await readRequestBody(request, checkMaxBodyBytes(options.maxBodyBytes));
  const event = await verifyWebhook({ ...options, body, headers: request.headers });
  if (guard !== undefined) rememberClaim(event, await guard.claim(event, request.headers));
  return event;
}
