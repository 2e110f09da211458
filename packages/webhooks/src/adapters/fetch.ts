import { verifyWebhook } from '../crypto/web';
import type { CspwatchEvent } from '../payloads';
import { rememberClaim } from '../replay/claims';
import type { ReplayGuard } from '../replay/guard';
import type { VerifyOptions } from '../verify';
import { assertDeclaredLength, bodyTooLarge, checkMaxBodyBytes } from './read-body';
import { bodyAlreadyRead, readBodyStream } from './read-stream';
import { checkReplayGuard } from './replay';

/** The parts of a Fetch `Request` that verification reads. */
export interface RequestLike {
  /** The request headers. */
  readonly headers: {
    /** Returns the header's value, or `null` when it is absent. */
    get(name: string): string | null;
  };
  /** The body stream (`null` for an empty body), read with a running byte count. */
  readonly body?: ReadableStream<Uint8Array> | null;
  /** True once something read the body. */
  readonly bodyUsed?: boolean;
  /** Reads the body as bytes; used only when `body` is not available. */
  arrayBuffer(): Promise<ArrayBuffer>;
}

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

/** Reads a request's exact body bytes, refusing more than `maxBodyBytes`. */
export async function readRequestBody(
  request: RequestLike,
  maxBodyBytes: number,
): Promise<Uint8Array> {
  assertDeclaredLength(request.headers.get('content-length') ?? undefined, maxBodyBytes);
  if (request.bodyUsed === true) throw bodyAlreadyRead();
  const stream = request.body;
  if (stream === null) return new Uint8Array(0);
  if (stream !== undefined) return readBodyStream(stream, maxBodyBytes);
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await request.arrayBuffer());
  } catch (error) {
    throw bodyAlreadyRead(error);
  }
  if (bytes.byteLength > maxBodyBytes) throw bodyTooLarge(maxBodyBytes);
  return bytes;
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
