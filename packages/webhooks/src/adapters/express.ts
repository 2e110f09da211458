import type { CspwatchEvent } from '../alerts/payloads';
import {
  assertDeclaredLength,
  checkMaxBodyBytes,
  type ReadableBodyLike,
  readBody,
} from '../body/read-body';
import { verifyWebhook } from '../crypto/node';
import {
  isReceiverSetupError,
  isWebhookVerificationError,
  WebhookVerificationError,
} from '../errors';
import type { ReplayClaim } from '../replay/guard';
import { readHeader, type WebhookHeadersInput } from '../signature/headers';
import type { VerifyOptions } from '../signature/verify';
import { checkAdapterOptions } from './options';
import { sendWebhookProblem } from './problem';
import { callRejectedHook, checkRejectedHook } from './rejected-hook';
import { type AdapterReplayOption, adapterReplayGuard, releaseInBackground } from './replay';

/** An Express (or plain Node) request: only what the middleware reads and writes. */
export interface ExpressRequestLike extends ReadableBodyLike {
  /** The request headers. */
  headers: WebhookHeadersInput;
  /** Set by a body parser: a Buffer after `express.raw()`, a string after `express.text()`. */
  body?: unknown;
  /** The raw bytes kept by `express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })`. */
  rawBody?: unknown;
  /** True once the body stream was consumed. */
  readableEnded?: boolean;
  /** The verified alert, set by {@link cspwatchWebhook}; read it with {@link getCspwatchEvent}. */
  cspwatchEvent?: CspwatchEvent;
}

/** An Express (or plain Node) response: only what the middleware writes. */
export interface ExpressResponseLike {
  /** Status code of the response. */
  statusCode: number;
  /** Sets one response header. */
  setHeader(name: string, value: string): unknown;
  /** Ends the response with a body. */
  end(chunk: string): unknown;
  /**
   * Sends the status line: how the replay guard sees a handler that answered 5xx (it runs even
   * once the client has left, when `finish` never comes).
   */
  writeHead?(statusCode: number, ...rest: never[]): unknown;
}

/** Express's `next`. */
export type NextFunctionLike = (error?: unknown) => void;

/** Options of {@link cspwatchWebhook}. */
export interface CspwatchWebhookOptions extends VerifyOptions {
  /**
   * Largest body the middleware reads itself when no body parser ran, in bytes.
   * @default 1048576
   */
  maxBodyBytes?: number;
  /**
   * Called with the error of each refused delivery (400 or 413) before the response is sent,
   * e.g. to log `error.code`. It cannot change or cancel the refusal: if it throws or rejects,
   * the refusal is sent anyway and its error goes to `process.emitWarning`.
   */
  onRejected?: (error: WebhookVerificationError, req: ExpressRequestLike) => void;
  /**
   * Refuse a delivery accepted before (`409 replayed_delivery`): `true`, or the guard's
   * options (`store`, `key`, `ttlMs`, `prefix`). The claim is released, so the sender's retry
   * is accepted, when your handler answers 5xx (an error passed to `next` included), even after
   * the client has left; not because the client closes the connection first (your handler
   * still runs). A store that cannot answer gets `503`.
   * @default false
   */
  replay?: AdapterReplayOption;
}

const PARSED_WITHOUT_RAW_COPY =
  'express.json() (or another parser) already parsed this request and kept no raw copy, so ' +
  'the exact bytes the signature covers are gone. Mount the webhook route before ' +
  "express.json(), or with express.raw({ type: 'application/json' }), or keep the bytes with " +
  'express.json({ verify: (req, _res, buf) => { req.rawBody = buf } }).';

async function rawBodyOf(
  req: ExpressRequestLike,
  maxBodyBytes: number,
): Promise<string | Uint8Array> {
  const { rawBody, body } = req;
  if (typeof rawBody === 'string' || rawBody instanceof Uint8Array) return rawBody;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body !== undefined || req.readableEnded === true) {
    throw new WebhookVerificationError('body_not_raw', PARSED_WITHOUT_RAW_COPY);
  }
  assertDeclaredLength(readHeader(req.headers, 'content-length'), maxBodyBytes);
  return readBody(req, maxBodyBytes);
}

/**
 * Express middleware that verifies a cspwatch delivery and puts the typed alert on
 * `req.cspwatchEvent`. Works after `express.raw({ type: 'application/json' })`, after
 * `express.json({ verify })` that stores `req.rawBody`, or with no body parser (it reads
 * the stream, up to `maxBodyBytes`). Invalid deliveries get `400 application/problem+json`
 * (413 when too large; with `replay`, 409 for a replay and 503 when the store cannot
 * answer) and never reach your handler. A body parsed with no raw copy is a
 * setup mistake: it is passed to `next(error)` with how to fix it.
 *
 * @example
 * ```ts
 * app.post(
 *   '/webhooks/cspwatch',
 *   express.raw({ type: 'application/json' }),
 *   cspwatchWebhook({ secret: process.env.CSPWATCH_WEBHOOK_SECRET! }),
 *   (req, res) => {
 *     const event = getCspwatchEvent(req);
 *     res.sendStatus(204);
 *   },
 * );
 * ```
 */
export function cspwatchWebhook(
  options: CspwatchWebhookOptions,
): (req: ExpressRequestLike, res: ExpressResponseLike, next: NextFunctionLike) => void {
  checkAdapterOptions(options);
  const maxBodyBytes = checkMaxBodyBytes(options.maxBodyBytes);
  const onRejected = checkRejectedHook(options.onRejected);
  const guard = adapterReplayGuard(options);
  const handle = async (
    req: ExpressRequestLike,
    res: ExpressResponseLike,
    next: NextFunctionLike,
  ) => {
    try {
      const body = await rawBodyOf(req, maxBodyBytes);
      const event = await verifyWebhook({ ...options, body, headers: req.headers });
      if (guard !== undefined) releaseOnFailure(res, await guard.claim(event, req.headers));
      req.cspwatchEvent = event;
    } catch (error) {
      if (!isWebhookVerificationError(error) || isReceiverSetupError(error)) return next(error);
      if (onRejected !== undefined) callRejectedHook(onRejected, error, req);
      sendWebhookProblem(res, error);
      return;
    }
    next();
  };
  return (req, res, next) => {
    handle(req, res, next).catch(next);
  };
}

/**
 * Frees the claim when the handler answers 5xx: its own word that it did not handle the
 * delivery, seen when the status is written, even after the client has left. A client that
 * closes the connection first says nothing about the handler, which runs on: releasing then
 * would let whoever holds a captured delivery replay it, aborting each time, and have it
 * handled again and again.
 */
function releaseOnFailure(res: ExpressResponseLike, claim: ReplayClaim): void {
  const writeHead = res.writeHead;
  if (typeof writeHead !== 'function') return;
  res.writeHead = function (this: unknown, statusCode: number, ...rest: never[]) {
    if (statusCode >= 500) releaseInBackground(() => claim.release());
    return writeHead.call(this, statusCode, ...rest);
  };
}

/**
 * Returns the alert that {@link cspwatchWebhook} verified for this request; throws if the
 * middleware did not run on this route.
 *
 * @example
 * ```ts
 * const event = getCspwatchEvent(req);
 * if (isCspViolationNewTypeEvent(event)) notify(event.findings);
 * ```
 */
export function getCspwatchEvent(req: object): CspwatchEvent {
  const event = (req as ExpressRequestLike).cspwatchEvent;
  if (event === undefined) {
    throw new Error(
      'No verified cspwatch event on this request: mount cspwatchWebhook() before this handler.',
    );
  }
  return event;
}
