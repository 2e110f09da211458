import type * as z from 'zod/mini';
import {
  CspwatchConnectionError,
  type CspwatchError,
  CspwatchTimeoutError,
  CspwatchTokenError,
  isCspwatchError,
} from './errors';
import { readBody, sendAttempt } from './http';
import { isValidTokenValue, type ResolvedOptions, USER_AGENT } from './options';
import { parseSuccessBody, toApiError } from './problem';
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

async function getToken(
  options: ResolvedOptions,
  forceRefresh: boolean,
  signal: AbortSignal | undefined,
): Promise<string> {
  const { token } = options;
  if (typeof token === 'string') return token;
  let value: unknown;
  try {
    value = await token(signal ? { forceRefresh, signal } : { forceRefresh });
  } catch (cause) {
    if (signal?.aborted) throw signal.reason;
    throw new CspwatchTokenError('The token function failed; nothing was sent', { cause });
  }
  if (typeof value !== 'string' || !isValidTokenValue(value)) {
    throw new CspwatchTokenError(
      'The token function must return a non-empty string without spaces or control characters',
    );
  }
  return value;
}

function requestHeaders(options: ResolvedOptions, hasBody: boolean): Headers {
  const headers = new Headers(options.headers);
  const customAgent = headers.get('user-agent');
  headers.set('user-agent', customAgent ? `${customAgent} ${USER_AGENT}` : USER_AGENT);
  headers.set('accept', 'application/json, application/problem+json');
  if (hasBody) headers.set('content-type', 'application/json');
  return headers;
}

/** Makes one attempt; throws only the abort reason. Internal. */
export async function runAttempt<T extends z.ZodMiniType>(
  options: ResolvedOptions,
  spec: AttemptSpec<T>,
): Promise<AttemptOutcome<z.output<T>>> {
  const { signal } = spec;
  const idempotent = spec.method === 'GET';
  const remaining = spec.deadline - Date.now();
  if (remaining <= 0) return failed(new CspwatchTimeoutError(options.totalTimeout, 'total'), false);
  let token: string;
  try {
    token = await getToken(options, spec.forceRefresh, signal);
  } catch (error) {
    if (!(error instanceof CspwatchTokenError)) throw error;
    // A throwing provider sent nothing, so a retry is safe; a bad return value is a bug.
    return failed(error, error.cause !== undefined);
  }
  const headers = requestHeaders(options, spec.body !== undefined);
  const logged = { ...Object.fromEntries(headers), authorization: '[redacted]' };
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
  try {
    response = await sendAttempt({
      method: spec.method,
      url: options.baseUrl + spec.pathWithQuery,
      headers,
      body: spec.body,
      timeoutMs,
      timeoutScope,
      limitMs,
      signal,
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
  }
  const requestId = response.headers.get('x-request-id') ?? undefined;
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
