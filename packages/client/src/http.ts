import ky, { isTimeoutError } from 'ky';
import { CspwatchConnectionError, CspwatchTimeoutError } from './errors';

/*
 * The only module that touches ky. One call = one attempt: ky's own retries are off (the
 * retry loop in request.ts knows which failures are safe to repeat), HTTP error statuses are
 * returned as responses, and ky's failures are mapped to our error classes here, so ky never
 * appears in the public types.
 */

/** One HTTP attempt. Internal. */
export interface Attempt {
  method: 'GET' | 'POST';
  url: string;
  headers: Headers;
  body: string | undefined;
  /** Time limit until the response headers arrive. */
  timeoutMs: number;
  /** Which limit `timeoutMs` stands for, reported on timeout. */
  timeoutScope: 'attempt' | 'total';
  /** The configured limit reported on timeout (`timeout` or `totalTimeout`). */
  limitMs: number;
  signal: AbortSignal | undefined;
  fetch: typeof globalThis.fetch;
}

/** Error codes of failures that happen before a connection exists: nothing was sent. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EAI_FAIL',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Finds the system error code under a fetch `TypeError` (undici puts it in `cause`). */
function networkCodes(error: unknown): string[] {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const inner = cause instanceof AggregateError ? cause.errors : [cause];
  return [errorCode(cause), ...inner.map(errorCode)].filter((c): c is string => c !== undefined);
}

/**
 * `false` only when the failure is known to have happened before the connection was made
 * (refused, DNS failure, unreachable). Anything else may have reached the server.
 */
export function mayHaveBeenSent(error: unknown): boolean {
  const codes = networkCodes(error);
  return !(codes.length > 0 && codes.every((code) => NOT_SENT_CODES.has(code)));
}

/**
 * Sends one attempt and returns the response, whatever its status. Throws
 * {@link CspwatchTimeoutError}, {@link CspwatchConnectionError}, or the abort reason of
 * `signal`. Internal.
 */
export async function sendAttempt(attempt: Attempt): Promise<Response> {
  try {
    return await ky(attempt.url, {
      method: attempt.method,
      headers: attempt.headers,
      body: attempt.body ?? null,
      signal: attempt.signal ?? null,
      timeout: attempt.timeoutMs,
      fetch: attempt.fetch,
      retry: 0,
      throwHttpErrors: false,
    });
  } catch (error) {
    if (attempt.signal?.aborted) throw attempt.signal.reason;
    // ky's TimeoutError keeps the Request (authorization header included) as `request`, so
    // it is not passed on as `cause`: printing the error would print the token.
    if (isTimeoutError(error))
      throw new CspwatchTimeoutError(attempt.limitMs, attempt.timeoutScope);
    const codes = networkCodes(error);
    const reason = codes[0] ?? (error instanceof Error ? error.message : 'unknown error');
    const path = new URL(attempt.url).pathname;
    throw new CspwatchConnectionError(
      `${attempt.method} ${path} failed before a response arrived (${reason})`,
      mayHaveBeenSent(error),
      { cause: error },
    );
  }
}

/** Settles like `work`, or rejects with `expired()` once `ms` have passed. Internal. */
export async function withinTime<T>(
  work: Promise<T>,
  ms: number,
  expired: () => unknown,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(expired()), Math.max(0, ms));
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads the response body as text, within `timeoutMs` (ky's timeout ends when the headers
 * arrive, so a stalled body needs its own limit). Internal.
 */
export function readBody(
  response: Response,
  timeoutMs: number,
  timeoutScope: 'attempt' | 'total',
  limitMs: number,
): Promise<string> {
  return withinTime(response.text(), timeoutMs, () => {
    response.body?.cancel().catch(() => {});
    return new CspwatchTimeoutError(limitMs, timeoutScope);
  });
}
