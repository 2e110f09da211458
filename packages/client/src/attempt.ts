import type * as z from 'zod/mini';
import { getToken, redactLoggedHeaders, requestHeaders } from './credentials';
import {
  CspwatchConnectionError,
  type CspwatchError,
  CspwatchTimeoutError,
  CspwatchTokenError,
  isCspwatchError,
} from './errors';
import { readBody, sendAttempt } from './http';
import { linkSignal } from './linked-signal';
import type { ResolvedOptions } from './options';
import { parseSuccessBody, toApiError } from './problem';
import { redactHeaders } from './redact';
import { isRetryableStatus } from './retry';

/*
 * One attempt of an API call: get the token, send, read, and classify the outcome (value,
 * or error + whether a retry is safe). The retry loop around it lives in request.ts.
 */

/** One attempt to make. Internal. */
export interface AttemptSpec<T extends z.ZodMiniType> {
  method: 'GET' | 'POST';
  /** Encoded path and query, e.g. `/v1/workspaces/w1/api-keys?limit=10`. */
  pathWithQuery: string;
  /** JSON body text, if any. */
  body: string | undefined;
  schema: T;
  signal: AbortSignal | undefined;
  /** Epoch ms when the call's `totalTimeout` runs out. */
  deadline: number;
  /** 1 for the first attempt. */
  number: number;
  /** Ask a token function for a fresh token (after a 401). */
  forceRefresh: boolean;
}

/** What an attempt gave. Internal. */
export type AttemptOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; error: CspwatchError; retryable: boolean; refreshToken: boolean };

const failed = (error: CspwatchError, retryable: boolean, refreshToken = false) =>
  ({ ok: false, error, retryable, refreshToken }) as const;

/** Makes one attempt; throws only the abort reason. Internal. */
export async function runAttempt<T extends z.ZodMiniType>(
  options: ResolvedOptions,
  spec: AttemptSpec<T>,
): Promise<AttemptOutcome<z.output<T>>> {
  const { signal } = spec;
  const idempotent = spec.method === 'GET';
  const outOfTime = () => failed(new CspwatchTimeoutError(options.totalTimeout, 'total'), false);
  if (spec.deadline - Date.now() <= 0) return outOfTime();
  let token: string;
  try {
    token = await getToken(options, spec.forceRefresh, signal, spec.deadline);
  } catch (error) {
    if (error instanceof CspwatchTimeoutError) return failed(error, false);
    if (!(error instanceof CspwatchTokenError)) throw error;
    // A throwing provider sent nothing, so a retry is safe; a bad return value is a bug.
    return failed(error, error.cause !== undefined);
  }
  // Measured after the token arrived, so the attempt's limits fit in what is left.
  const remaining = spec.deadline - Date.now();
  if (remaining <= 0) return outOfTime();
  const headers = requestHeaders(options, spec.body !== undefined);
  const logged = redactLoggedHeaders(headers);
  headers.set('authorization', `Bearer ${token}`);
  const started = Date.now();
  const finish = (status: number | undefined, requestId: string | undefined, code?: string) => {
    try {
      options.logger?.({
        method: spec.method,
        path: spec.pathWithQuery,
        status,
        durationMs: Date.now() - started,
        requestId,
        attempt: spec.number,
        requestHeaders: logged,
        errorCode: code,
      });
    } catch {
      // A failing logger must not change the outcome of the call.
    }
  };

  const timeoutMs = Math.min(options.timeout, remaining);
  const timeoutScope = options.timeout <= remaining ? 'attempt' : 'total';
  const limitMs = timeoutScope === 'attempt' ? options.timeout : options.totalTimeout;
  let response: Response;
  let rawBody: string;
  // Follows the caller's signal for this attempt only, so nothing piles up on it per page.
  const link = linkSignal(signal);
  try {
    response = await sendAttempt({
      method: spec.method,
      url: options.baseUrl + spec.pathWithQuery,
      headers,
      body: spec.body,
      timeoutMs,
      timeoutScope,
      limitMs,
      signal: link.signal,
      fetch: options.fetch,
    });
    rawBody = await readBody(response, started + timeoutMs - Date.now(), timeoutScope, limitMs);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    const mapped = isCspwatchError(error)
      ? error
      : new CspwatchConnectionError(`${spec.method}: reading the response failed`, true, {
          cause: error,
        });
    finish(undefined, undefined, mapped.code);
    // A POST that may have reached the server is never repeated: it could create twice.
    if (mapped instanceof CspwatchConnectionError) {
      return failed(mapped, idempotent || !mapped.requestMayHaveBeenSent);
    }
    return failed(
      mapped,
      idempotent && mapped instanceof CspwatchTimeoutError && mapped.scope === 'attempt',
    );
  } finally {
    link.release();
  }
  const requestId = redactHeaders(response.headers, token).get('x-request-id') ?? undefined;
  if (response.ok) {
    try {
      const value = parseSuccessBody(response, rawBody, spec.schema, token);
      finish(response.status, requestId);
      return { ok: true, value };
    } catch (error) {
      finish(response.status, requestId, (error as CspwatchError).code);
      return failed(error as CspwatchError, false);
    }
  }
  const error = toApiError(response, rawBody, Date.now(), token);
  finish(response.status, requestId, error.code);
  const refreshToken = response.status === 401 && typeof options.token === 'function';
  return failed(error, isRetryableStatus(response.status, idempotent), refreshToken);
}
