import { CspwatchTimeoutError, CspwatchTokenError } from './errors';
import { withinTime } from './http';
import { isValidTokenValue, type ResolvedOptions, USER_AGENT } from './options';

/*
 * What identifies a request: the bearer token (from a string or a token function), the
 * fixed headers, and the redacted view of them given to the logger.
 */

/**
 * Gets the bearer token for one attempt, within the call's time budget. Throws
 * {@link CspwatchTokenError}, {@link CspwatchTimeoutError} or the abort reason. Internal.
 */
export async function getToken(
  options: ResolvedOptions,
  forceRefresh: boolean,
  signal: AbortSignal | undefined,
  deadline: number,
): Promise<string> {
  const { token } = options;
  if (typeof token === 'string') return token;
  let value: unknown;
  try {
    // A hanging token endpoint must not outlive the call's time budget.
    value = await withinTime(
      Promise.resolve().then(() => token(signal ? { forceRefresh, signal } : { forceRefresh })),
      deadline - Date.now(),
      () => new CspwatchTimeoutError(options.totalTimeout, 'total'),
    );
  } catch (cause) {
    if (signal?.aborted) throw signal.reason;
    if (cause instanceof CspwatchTimeoutError) throw cause;
    throw new CspwatchTokenError('The token function failed; nothing was sent', { cause });
  }
  if (typeof value !== 'string' || !isValidTokenValue(value)) {
    throw new CspwatchTokenError(
      'The token function must return a non-empty string without spaces or control characters',
    );
  }
  return value;
}

/** Request headers that carry credentials; the logger sees `[redacted]` instead. */
const SENSITIVE_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key']);

/** The request headers as the logger sees them, credentials redacted. Internal. */
export function redactLoggedHeaders(headers: Headers): Record<string, string> {
  const logged: Record<string, string> = { authorization: '[redacted]' };
  for (const [name, value] of headers) {
    logged[name] = SENSITIVE_HEADERS.has(name) ? '[redacted]' : value;
  }
  return logged;
}

/** The headers of every request except `authorization`. Internal. */
export function requestHeaders(options: ResolvedOptions, hasBody: boolean): Headers {
  const headers = new Headers(options.headers);
  const customAgent = headers.get('user-agent');
  headers.set('user-agent', customAgent ? `${customAgent} ${USER_AGENT}` : USER_AGENT);
  headers.set('accept', 'application/json, application/problem+json');
  if (hasBody) headers.set('content-type', 'application/json');
  return headers;
}
