import { issue } from '@cspwatch/internal';
import ky, { isTimeoutError } from 'ky';
import type * as z from 'zod/mini';
import type { CspwatchWithResponse } from '../api-promise';
import { CspwatchApiError, CspwatchAuthenticationError } from '../errors/api-error';
import type { CspwatchError, CspwatchErrorOptions } from '../errors/cspwatch-error';
import { CspwatchInputError } from '../errors/input-error';
import { CspwatchTimeoutError } from '../errors/timeout-error';
import type { CspwatchRequestOptions, ResolvedOptions } from '../options/client-options';
import { startCallSpan } from '../telemetry/tracing';
import { getToken, redactLoggedHeaders, requestHeaders } from './credentials';
import { linkSignal } from './linked-signal';
import {
  parseSuccessBody,
  type SeenResponse,
  seeResponse,
  toApiError,
  toConnectionError,
} from './read-response';
import { backoffDelay, isRetryable } from './retry';

/*
 * One API call, downhill: token and headers (ky `beforeRequest`) -> send and read the whole
 * body within ky's `timeout` (our `fetch`) -> redact once and classify (ky `afterResponse`)
 * -> retry decision (`planRetry`, from `afterResponse` for an answer, from ky's
 * `retry.shouldRetry` for a failure without one; ky waits, abortably).
 * docs/client-reference.md ("Design notes") says which rules are ours and why.
 */

/** What a resource asks of the transport. Internal. */
export interface RequestSpec<T extends z.ZodMiniType> {
  /** The contract's operation id, e.g. `listApiKeys` (names the call's span). */
  operation: string;
  method: 'GET' | 'POST';
  /** The path template, e.g. `/v1/workspaces/{workspaceId}/api-keys` (names attempt spans). */
  route: string;
  /** Path below the base URL, already encoded, e.g. `/v1/workspaces/w1/api-keys`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  schema: T;
  /** The call's options, already validated. */
  options: CspwatchRequestOptions;
  /** Set while iterating a list: errors carry the cursor of the page. */
  iteration?: { cursor: string | undefined };
}

/** Sends API calls with the client's options. Internal. */
export type Transport = <T extends z.ZodMiniType>(
  spec: RequestSpec<T>,
) => Promise<CspwatchWithResponse<z.output<T>>>;

function buildQuery(query: RequestSpec<z.ZodMiniType>['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Creates the function that performs one API call with retries. Internal. */
export function createTransport(client: ResolvedOptions): Transport {
  const { hooks } = client;
  const fixedToken = typeof client.token === 'string' ? client.token : '';
  // A string token without a `beforeRequest` hook is sent as a plain header: no hook per attempt.
  const direct = !hooks.beforeRequest && fixedToken;
  return async function send<T extends z.ZodMiniType>(spec: RequestSpec<T>) {
    // One logical API call: it starts here and ends in the `finally` around `ky(…)` below.
    const { method, options } = spec;
    const timeout = options.timeout ?? client.timeout;
    const maxRetries = options.maxRetries ?? client.maxRetries;
    const pathWithQuery = spec.path + buildQuery(spec.query);
    const url = client.baseUrl + pathWithQuery;
    const context: CspwatchErrorOptions = spec.iteration ? { iteration: spec.iteration } : {};
    const deadline = Date.now() + client.totalTimeout;
    const total = () => new CspwatchTimeoutError(client.totalTimeout, 'total', context);
    // A signal that aborts with the caller's and at the deadline. ky gets the call's signal only
    // when the caller gave one: ky combines it with its own on every attempt (AbortSignal.any;
    // bench/RESULTS.md, "Speed tricks kept", has the paired figure). Without one, what could
    // outlast the deadline gets such a signal of its own: the token function, an attempt with
    // less time left than its timeout.
    const budget = (signal: AbortSignal | undefined) =>
      linkSignal(signal, { ms: deadline - Date.now(), reason: total });
    const call = options.signal && budget(options.signal);
    // The call's attempts so far, when the current one started and the body it read, and the
    // token refresh.
    let attempt = 0;
    let started = 0;
    let body = '';
    let refreshed = false;
    let forceRefresh = false;
    const baseHeaders = requestHeaders(client, options, spec.body !== undefined);
    let token = fixedToken;
    if (direct) baseHeaders.set('authorization', `Bearer ${token}`);
    let result: CspwatchWithResponse<z.output<T>> | undefined;
    const { operation, route } = spec;
    const trace = startCallSpan(client.tracerProvider, { operation, method, route, url });

    const log = (request: Request, code?: string, seen?: SeenResponse) => {
      if (!client.logger) return;
      try {
        client.logger({
          method,
          path: pathWithQuery,
          status: seen?.status,
          durationMs: Date.now() - started,
          requestId: seen?.requestId,
          attempt,
          requestHeaders: redactLoggedHeaders(request.headers),
          responseHeaders: seen && Object.fromEntries(seen.headers),
          errorCode: code,
        });
      } catch {
        // A failing logger must not change the outcome of the call.
      }
    };

    const authorize = async (request: Request) => {
      attempt += 1;
      // A string token (here with a beforeRequest hook) needs no timer or signal link.
      if (!fixedToken) {
        const limit = budget(options.signal);
        try {
          token = await getToken(client, forceRefresh, limit.signal as AbortSignal);
        } finally {
          limit.release();
        }
      }
      forceRefresh = false;
      if (hooks.beforeRequest) {
        // Each attempt starts from the call's headers, not from the previous attempt's.
        const headers = new Headers(baseHeaders);
        await hooks.beforeRequest({ method, url, attempt, headers });
        if (headers.has('authorization')) {
          const message = 'must not set authorization (the client sets it from `token`)';
          throw new CspwatchInputError([issue('hooks.beforeRequest', 'invalid', message)]);
        }
        for (const name of [...request.headers.keys()]) request.headers.delete(name);
        for (const [name, value] of headers) request.headers.set(name, value);
      }
      request.headers.set('authorization', `Bearer ${token}`);
    };

    // ky's `fetch`: one HTTP exchange, the whole body read within ky's timeout (which covers
    // only what `fetch` resolves to) and kept in `body` for `classify`; ky gets the response
    // without it (bench/RESULTS.md, "Speed tricks kept").
    const sendAndRead = async (request: Request, init?: RequestInit): Promise<Response> => {
      if (direct) attempt += 1;
      started = Date.now();
      let response: Response;
      const limit = !call && deadline - started < timeout ? budget(request.signal) : undefined;
      const signal = limit?.signal ?? request.signal;
      const span = trace?.attempt(request.headers, attempt);
      try {
        const fetchOnce = () => client.fetch(request, limit ? { ...init, signal } : init);
        response = await (span ? span.run(fetchOnce) : fetchOnce());
        body = await response.text();
      } catch (error) {
        if (!signal.aborted) {
          log(request, 'connection_failed');
          const failure = toConnectionError(error, method, client.host, context);
          span?.end(undefined, failure);
          throw failure;
        }
        // ky's timeout, the total budget, or the caller's abort (not an outcome to log).
        if (!options.signal?.aborted) log(request, 'timeout');
        span?.end(undefined, signal.reason);
        throw signal.reason;
      } finally {
        limit?.release();
      }
      span?.end(response.status);
      // Without a body (a 204, a browser's opaque redirect) the response is still unread.
      // Else status, status text and headers as received: a Response is a ResponseInit.
      return response.body === null ? response : new Response(null, response);
    };

    const asClientError = (error: unknown) =>
      isTimeoutError(error) ? new CspwatchTimeoutError(timeout, 'attempt', context) : error;
    // Retries before ky's retry `retry` (from 1), the replay after a token refresh not counted.
    const retriesBefore = (retry: number) => retry - 1 - Number(refreshed);
    // Retry n waits one draw of full jitter, drawn once: ky's `retry.delay` and `planRetry`
    // (which checks it against the deadline and tells `beforeRetry`) see the same wait.
    const waits: number[] = [];
    const backoff = (retry: number) => {
      waits[retry] ??= backoffDelay(
        retriesBefore(retry),
        client.random,
        client.retryBaseDelay,
        client.retryMaxDelay,
      );
      return waits[retry];
    };

    /**
     * The wait before ky's retry `retry` (from 1) after `failure`, or `undefined` to give up.
     * Called where a failure is seen: `classify` for an answer, ky's `shouldRetry` otherwise.
     */
    const planRetry = async (failure: CspwatchError, retry: number) => {
      if (options.signal?.aborted || Date.now() >= deadline) return undefined;
      // A token function's refused token is replayed once with a fresh one, at once, outside
      // maxRetries (a string token cannot be refreshed).
      if (failure instanceof CspwatchAuthenticationError && !fixedToken && !refreshed) {
        refreshed = forceRefresh = true;
        return 0;
      }
      if (!isRetryable(failure, method === 'GET') || retriesBefore(retry) >= maxRetries) {
        return undefined;
      }
      const retryAfter = failure instanceof CspwatchApiError ? failure.retryAfterMs : undefined;
      // A wait longer than the cap is the caller's decision: throw at once, carrying it.
      if (retryAfter !== undefined && retryAfter > client.retryAfterCap) return undefined;
      const wait = retryAfter ?? backoff(retry);
      if (Date.now() + wait >= deadline) return undefined;
      await hooks.beforeRetry?.(
        Object.freeze({ method, url, attempt, error: failure, delayMs: wait }),
      );
      return wait;
    };

    // ky's `afterResponse`: redact once, classify, and retry an answer after the wait
    // `planRetry` gives (`ky.retry`).
    const classify = async (
      request: Request,
      _options: unknown,
      response: Response,
      { retryCount }: { retryCount: number },
    ) => {
      const seen = seeResponse(response, token);
      const { status, headers, requestId } = seen;
      if (hooks.afterResponse) {
        const durationMs = Date.now() - started;
        const view = { method, url, attempt, status, headers, requestId, durationMs };
        await hooks.afterResponse(Object.freeze(view));
      }
      try {
        if (!response.ok) throw toApiError(seen, body, token, context);
        const data = parseSuccessBody(seen, body, spec.schema, token, context);
        result = { data, response: { status, headers, requestId, attempts: attempt } };
      } catch (error) {
        log(request, (error as CspwatchError).code, seen);
        const wait = await planRetry(error as CspwatchError, retryCount + 1);
        if (wait === undefined) throw error;
        return ky.retry({ delay: wait });
      }
      log(request, undefined, seen);
      return undefined;
    };

    // A failure without an answer (connection, timeout, token, hook); ky then waits `backoff`.
    const shouldRetry = async ({ error, retryCount }: { error: unknown; retryCount: number }) => {
      const failure = asClientError(error);
      // What `classify` threw was decided there; `isRetryable` refuses anything not ours.
      if (failure instanceof CspwatchApiError) return false;
      return (await planRetry(failure as CspwatchError, retryCount)) !== undefined;
    };

    try {
      await ky(url, {
        method,
        headers: baseHeaders,
        json: spec.body,
        signal: call?.signal ?? null,
        timeout,
        fetch: sendAndRead as typeof fetch,
        redirect: 'manual',
        retry: {
          // One more than maxRetries: the replay after a token refresh is not a retry.
          limit: maxRetries + 1,
          methods: ['get', 'post'],
          shouldRetry,
          delay: backoff,
        },
        hooks: { beforeRequest: direct ? [] : [authorize], afterResponse: [classify] },
      });
    } catch (error) {
      const failure = asClientError(error);
      trace?.end(failure);
      throw failure;
    } finally {
      call?.release();
      body = '';
    }
    trace?.end();
    // ky resolves only after `classify` read a 2xx, which set `result`. Taken out of this
    // call's scope, like `body`: what ky leaves for finalizers to release (undici's signal
    // links) keeps the scope alive until a full GC, and the page with it would be copied by
    // every scavenge.
    const value = result as CspwatchWithResponse<z.output<T>>;
    result = undefined;
    return value;
  };
}
