import { CspwatchTokenError } from '../errors/token-error';
import {
  type CspwatchRequestOptions,
  type ResolvedOptions,
  USER_AGENT,
} from '../options/client-options';
import { isValidTokenValue } from '../options/resolve-options';

/*
 * What identifies a request: the bearer token (a string or a token function), the headers
 * of the client and of the call, and the redacted view of them given to the logger.
 */

/**
 * Gets the bearer token for one attempt; a hanging token function ends with the call's
 * signal (total budget or abort). Throws {@link CspwatchTokenError} or the signal's reason.
 * Internal.
 */
export async function getToken(
  options: ResolvedOptions,
  forceRefresh: boolean,
  signal: AbortSignal,
): Promise<string> {
  const { token } = options;
  if (typeof token === 'string') return token;
  let value: unknown;
  try {
    // The listener dies with the call's own signal, so it need not be removed.
    value = await Promise.race([
      token({ forceRefresh, signal }),
      new Promise((_, reject) => {
        signal.throwIfAborted();
        signal.addEventListener('abort', () => reject(signal.reason));
      }),
    ]);
  } catch (cause) {
    if (signal.aborted) throw signal.reason;
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

/** The headers of a call except `authorization`: the client's, then the call's. Internal. */
export function requestHeaders(
  options: ResolvedOptions,
  call: CspwatchRequestOptions,
  hasBody: boolean,
): Headers {
  const headers = new Headers(options.headers);
  for (const [name, value] of Object.entries(call.headers ?? {})) headers.set(name, value);
  const customAgent = headers.get('user-agent');
  headers.set('user-agent', customAgent ? `${customAgent} ${USER_AGENT}` : USER_AGENT);
  headers.set('accept', 'application/json, application/problem+json');
  if (hasBody) headers.set('content-type', 'application/json');
  return headers;
}
