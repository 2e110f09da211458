import type { CspwatchEvent } from '../alerts/payloads';
import {
  assertDeclaredLength,
  checkMaxBodyBytes,
  type ReadableBodyLike,
  readBody,
} from '../body/read-body';
import { verifyWebhook } from '../crypto/web';
import {
  isReceiverSetupError,
  isWebhookVerificationError,
  WebhookVerificationError,
} from '../errors';
import { releaseReplayClaim, rememberClaim } from '../replay/claims';
import type { ReplayGuard } from '../replay/guard';
import { readHeader, type WebhookHeadersInput } from '../signature/headers';
import type { VerifyOptions } from '../signature/verify';
import { type VerifyRequestOptions, verifyRequest } from './fetch';
import { checkAdapterOptions } from './options';
import { createProblemResponse } from './problem';
import { callRejectedHook, checkRejectedHook } from './rejected-hook';
import {
  type AdapterReplayOption,
  adapterReplayGuard,
  checkReplayGuard,
  releaseInBackground,
} from './replay';

/** Your App Router handler, called only with a verified event. */
export type VerifiedRouteHandler<TContext> = (
  event: CspwatchEvent,
  request: Request,
  context: TContext,
) => Response | Promise<Response>;

/** Options of {@link withCspwatchWebhook}. */
export interface WithCspwatchWebhookOptions extends Omit<VerifyRequestOptions, 'replay'> {
  /**
   * Refuse a delivery accepted before (`409 replayed_delivery`): `true`, the guard's options
   * (`store`, `key`, `ttlMs`, `prefix`) or a guard. The claim is released, so the sender's
   * retry is accepted, when your handler throws or returns a 5xx response. A store that
   * cannot answer gets `503` with `Retry-After`.
   * @default false
   */
  replay?: AdapterReplayOption;
  /**
   * Called with the error of each refused delivery before the response is sent, e.g. to log
   * `error.code`. It cannot change or cancel the refusal: if it throws or rejects, the refusal
   * is sent anyway and its error is reported as a warning.
   */
  onRejected?: (error: WebhookVerificationError, request: Request) => void;
}

/**
 * Wraps a Next.js App Router route handler (Node or Edge runtime): the delivery is verified
 * first; an invalid one gets `400 application/problem+json` (`413` past `maxBodyBytes`,
 * default 1 MiB; with `replay`, `409` for a replay and `503` when the store cannot answer)
 * and never reaches `handler`. Options are checked when the route module loads; pass the
 * secret as a function, called per request, so `next build` loads the module without it (a
 * function that gives no valid secret is `invalid_secret`, rethrown: Next answers 500).
 *
 * @example
 * ```ts
 * // app/api/cspwatch/route.ts
 * export const POST = withCspwatchWebhook(
 *   async (event) => {
 *     await saveAlert(event);
 *     return new Response(null, { status: 204 });
 *   },
 *   { secret: () => process.env.CSPWATCH_WEBHOOK_SECRET },
 * );
 * ```
 */
export function withCspwatchWebhook<TContext = unknown>(
  handler: VerifiedRouteHandler<TContext>,
  options: WithCspwatchWebhookOptions,
): (request: Request, context: TContext) => Promise<Response> {
  checkAdapterOptions(options);
  const { replay: _replay, onRejected: _onRejected, ...verifyOptions } = options;
  const onRejected = checkRejectedHook(options.onRejected);
  const guard = adapterReplayGuard(options);
  const checked: VerifyRequestOptions = {
    ...verifyOptions,
    maxBodyBytes: checkMaxBodyBytes(options.maxBodyBytes),
    ...(guard === undefined ? {} : { replay: guard }),
  };
  return async (request, context) => {
    let event: CspwatchEvent;
    try {
      event = await verifyRequest(request, checked);
    } catch (error) {
      if (isWebhookVerificationError(error) && !isReceiverSetupError(error)) {
        if (onRejected !== undefined) callRejectedHook(onRejected, error, request);
        return createProblemResponse(error);
      }
      throw error;
    }
    if (guard === undefined) return handler(event, request, context);
    let response: Response;
    try {
      response = await handler(event, request, context);
    } catch (error) {
      releaseInBackground(() => releaseReplayClaim(event));
      throw error;
    }
    if (response.status >= 500) releaseInBackground(() => releaseReplayClaim(event));
    return response;
  };
}

/** A Pages Router `NextApiRequest`: only what verification reads. */
export interface NextApiRequestLike extends ReadableBodyLike {
  /** The request headers. */
  headers: WebhookHeadersInput;
  /** Set by Next's body parser; must be `undefined` (`bodyParser: false`). */
  body?: unknown;
}

/** Options of {@link verifyNextApiRequest}. */
export interface VerifyNextApiRequestOptions extends VerifyOptions {
  /**
   * Largest body read, in bytes.
   * @default 1048576
   */
  maxBodyBytes?: number;
  /**
   * A guard from `createReplayGuard()`, made once at module level (with your `toleranceMs`
   * if you changed it): a delivery claimed before
   * is refused with `replayed_delivery`. Call `releaseReplayClaim(event)` when your handler
   * fails, so the sender's retry is accepted.
   */
  replay?: ReplayGuard;
}

/**
 * Verifies a Next.js Pages Router API request and returns its alert. The route must turn
 * Next's body parser off (`export const config = { api: { bodyParser: false } }`): this
 * reads the raw stream itself. Throws {@link WebhookVerificationError} (`sendWebhookProblem`
 * answers it: 400 for a refused delivery, 500 for a setup error such as an unset secret).
 *
 * @example
 * ```ts
 * // pages/api/cspwatch.ts
 * export const config = { api: { bodyParser: false } };
 * const secret = () => process.env.CSPWATCH_WEBHOOK_SECRET; // read per request
 * export default async function handler(req: NextApiRequest, res: NextApiResponse) {
 *   try {
 *     const event = await verifyNextApiRequest(req, { secret });
 *     await saveAlert(event);
 *     res.status(204).end();
 *   } catch (error) {
 *     if (!isWebhookVerificationError(error)) throw error;
 *     sendWebhookProblem(res, error);
 *   }
 * }
 * ```
 */
export async function verifyNextApiRequest(
  req: NextApiRequestLike,
  options: VerifyNextApiRequestOptions,
): Promise<CspwatchEvent> {
  const maxBodyBytes = checkMaxBodyBytes(options.maxBodyBytes);
  const guard = checkReplayGuard(options.replay);
  if (req.body !== undefined) {
    throw new WebhookVerificationError(
      'body_not_raw',
      "Next.js already parsed this request's body, so its exact bytes are gone. Add " +
        '`export const config = { api: { bodyParser: false } }` to this API route.',
    );
  }
  assertDeclaredLength(readHeader(req.headers, 'content-length'), maxBodyBytes);
  const body = await readBody(req, maxBodyBytes);
  const event = await verifyWebhook({ ...options, body, headers: req.headers });
  if (guard !== undefined) rememberClaim(event, await guard.claim(event, req.headers));
  return event;
}
