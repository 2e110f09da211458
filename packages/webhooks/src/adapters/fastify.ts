import type { CspwatchEvent } from '../alerts/payloads';
import { checkMaxBodyBytes } from '../body/read-body';
import { verifyWebhook } from '../crypto/node';
import {
  isReceiverSetupError,
  isWebhookVerificationError,
  WebhookVerificationError,
} from '../errors';
import type { ReplayClaim } from '../replay/guard';
import type { WebhookHeadersInput } from '../signature/headers';
import type { VerifyOptions } from '../signature/verify';
import { checkAdapterOptions } from './options';
import { problemHeaders, toWebhookProblem } from './problem';
import { callRejectedHook, checkRejectedHook } from './rejected-hook';
import { type AdapterReplayOption, adapterReplayGuard, releaseInBackground } from './replay';

/** A Fastify request: only what the plugin reads. */
export interface FastifyRequestLike {
  /** The request headers. */
  headers: WebhookHeadersInput;
  /** The body after content-type parsing: the raw Buffer with this plugin's parser. */
  body?: unknown;
  /** The raw body kept by `@fastify/raw-body` or your own parser, when set. */
  rawBody?: unknown;
}

/** A Fastify reply: only what the plugin writes. */
export interface FastifyReplyLike {
  /** The status code sent (or to be sent). */
  statusCode: number;
  /** Sets the status code. */
  code(statusCode: number): FastifyReplyLike;
  /** Sets response headers. */
  headers(values: Record<string, string>): FastifyReplyLike;
  /** Sends the response. */
  send(payload: string): FastifyReplyLike;
}

/** A Fastify instance: only what the plugin registers. */
export interface FastifyInstanceLike {
  /** Registers a body parser for a content type. */
  addContentTypeParser(
    contentType: string,
    options: { parseAs: 'buffer'; bodyLimit: number },
    parser: (
      request: unknown,
      body: unknown,
      done: (error: Error | null, body?: unknown) => void,
    ) => void,
  ): unknown;
  /** Registers a lifecycle hook. */
  addHook(
    name: 'preHandler',
    hook: (request: FastifyRequestLike, reply: FastifyReplyLike) => Promise<unknown>,
  ): unknown;
  /** Registers an `onSend` hook: it sees the status sent, even once the client has left. */
  addHook(
    name: 'onSend',
    hook: (
      request: FastifyRequestLike,
      reply: FastifyReplyLike,
      payload: unknown,
    ) => Promise<unknown>,
  ): unknown;
}

/** Options of {@link cspwatchFastify}. */
export interface CspwatchFastifyOptions extends VerifyOptions {
  /**
   * Largest `application/json` body read, in bytes (Fastify's `bodyLimit` for the parser;
   * Fastify answers 413 past it).
   * @default 1048576
   */
  maxBodyBytes?: number;
  /**
   * Called with the error of each refused delivery before the response is sent. It cannot
   * change the refusal; if it throws, its error goes to `process.emitWarning`.
   */
  onRejected?: (error: WebhookVerificationError, request: FastifyRequestLike) => void;
  /**
   * Refuse a delivery accepted before (`409 replayed_delivery`): `true`, the guard's options
   * (`store`, `key`, `ttlMs`, `prefix`) or a guard. The claim is released, so the sender's
   * retry is accepted, when your handler throws or answers 5xx, even after the client has
   * left; not because the client aborts the request first (your handler still runs). A store
   * that cannot answer gets `503` with `Retry-After`.
   * @default false
   */
  replay?: AdapterReplayOption;
}

/** A Fastify plugin function, marked to share its scope (what `fastify-plugin` does). */
export type CspwatchFastifyPlugin = ((instance: FastifyInstanceLike) => Promise<void>) & {
  /** Tells Fastify not to encapsulate: the parser and hooks apply to the registering scope. */
  [key: symbol]: unknown;
};

const events = new WeakMap<object, CspwatchEvent>();
const claims = new WeakMap<object, ReplayClaim>();

const PARSED_WITHOUT_RAW_COPY =
  'Another parser already turned this body into an object, so the exact bytes the signature ' +
  'covers are gone. Register cspwatchFastify() in the scope of the webhook route, where no ' +
  'other application/json parser is registered, or keep the raw bytes on request.rawBody.';

function rawBodyOf(request: FastifyRequestLike): string | Uint8Array {
  const { rawBody, body } = request;
  if (typeof rawBody === 'string' || rawBody instanceof Uint8Array) return rawBody;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body === undefined || body === null) return '';
  throw new WebhookVerificationError('body_not_raw', PARSED_WITHOUT_RAW_COPY);
}

/**
 * A Fastify plugin that verifies cspwatch deliveries on the routes of the scope it is
 * registered in: it parses `application/json` as the raw Buffer (`parseAs: 'buffer'`),
 * verifies in a `preHandler` hook, and refuses invalid deliveries with `400
 * application/problem+json` before your handler runs. Read the alert with
 * {@link getCspwatchEvent}. Register it in its own scope (as below) so the rest of your app
 * keeps Fastify's JSON parser.
 *
 * @example
 * ```ts
 * app.register(async (webhooks) => {
 *   await webhooks.register(cspwatchFastify({ secret: process.env.CSPWATCH_WEBHOOK_SECRET! }));
 *   webhooks.post('/webhooks/cspwatch', async (request, reply) => {
 *     await saveAlert(getCspwatchEvent(request));
 *     return reply.code(204).send();
 *   });
 * });
 * ```
 */
export function cspwatchFastify(options: CspwatchFastifyOptions): CspwatchFastifyPlugin {
  checkAdapterOptions(options);
  const maxBodyBytes = checkMaxBodyBytes(options.maxBodyBytes);
  const onRejected = checkRejectedHook(options.onRejected);
  const guard = adapterReplayGuard(options);
  const {
    replay: _replay,
    onRejected: _onRejected,
    maxBodyBytes: _max,
    ...verifyOptions
  } = options;

  const preHandler = async (request: FastifyRequestLike, reply: FastifyReplyLike) => {
    try {
      const body = rawBodyOf(request);
      const event = await verifyWebhook({ ...verifyOptions, body, headers: request.headers });
      if (guard !== undefined) {
        // Released only when the handler fails (onSend), not when the client leaves first:
        // the handler still runs, and a replay must not be handled again.
        claims.set(request, await guard.claim(event, request.headers));
      }
      events.set(request, event);
    } catch (error) {
      if (!isWebhookVerificationError(error) || isReceiverSetupError(error)) throw error;
      if (onRejected !== undefined) callRejectedHook(onRejected, error, request);
      const problem = toWebhookProblem(error);
      return reply
        .code(problem.status)
        .headers(problemHeaders(problem))
        .send(JSON.stringify(problem));
    }
    return undefined;
  };

  // onSend, not onResponse: after the client has left, only onSend still sees the 500.
  const onSend = async (request: FastifyRequestLike, reply: FastifyReplyLike, payload: unknown) => {
    const claim = claims.get(request);
    if (claim !== undefined && reply.statusCode >= 500) releaseInBackground(() => claim.release());
    return payload;
  };

  const plugin = async (instance: FastifyInstanceLike): Promise<void> => {
    try {
      instance.addContentTypeParser(
        'application/json',
        { parseAs: 'buffer', bodyLimit: maxBodyBytes },
        (_request, body, done) => done(null, body),
      );
    } catch {
      // A custom JSON parser is already registered here: rawBodyOf then needs request.rawBody,
      // and explains the fix when it is missing.
    }
    instance.addHook('preHandler', preHandler);
    if (guard !== undefined) instance.addHook('onSend', onSend);
  };
  return Object.assign(plugin, {
    [Symbol.for('skip-override')]: true,
    [Symbol.for('fastify.display-name')]: 'cspwatch-webhook',
  });
}

/**
 * Returns the alert that {@link cspwatchFastify} verified for this request; throws if the
 * plugin is not registered in this route's scope.
 *
 * @example
 * ```ts
 * const event = getCspwatchEvent(request);
 * ```
 */
export function getCspwatchEvent(request: object): CspwatchEvent {
  const event = events.get(request);
  if (event === undefined) {
    throw new Error(
      'No verified cspwatch event on this request: register cspwatchFastify() in the scope of this route.',
    );
  }
  return event;
}
