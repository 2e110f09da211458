import { type CspwatchRequestLogEntry, debugLogger } from './debug-log';
import type { CspwatchError, CspwatchFieldIssue } from './errors';
import { CspwatchInputError } from './errors';
import type { CspwatchTracerProvider } from './telemetry/tracing';
import { VERSION } from './version';

/** What a `token` function receives before each attempt. */
export interface CspwatchTokenContext {
  /** `true` after the server refused the previous token with 401: return a fresh one. */
  forceRefresh: boolean;
  /** Aborts when the call is aborted; pass it on to your token endpoint request. */
  signal?: AbortSignal;
}

/** A function returning the bearer token, called before every attempt. */
export type CspwatchTokenProvider = (context: CspwatchTokenContext) => string | Promise<string>;

/** Options of one call; they override the client's for that call. Validated like the client options. */
export interface CspwatchRequestOptions {
  /** Time limit of one attempt of this call, in ms (headers and body). */
  timeout?: number;
  /** Retries of this call after the first attempt; `0` disables them. */
  maxRetries?: number;
  /** Extra headers of this call, merged over the client's. `authorization` is refused: use `token`. */
  headers?: Record<string, string>;
  /** Aborts the call: the request in flight and any retry wait. */
  signal?: AbortSignal;
}

/** What `hooks.beforeRequest` receives before each attempt is sent. */
export interface CspwatchOutgoingRequest {
  /** HTTP method. */
  readonly method: string;
  /** Full URL. */
  readonly url: string;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  readonly attempt: number;
  /** The request headers, without `authorization`: add or change headers here (not `authorization`). */
  readonly headers: Headers;
}

/** What `hooks.afterResponse` receives for each response: a read-only view, the token redacted. */
export interface CspwatchResponseView {
  /** HTTP method. */
  readonly method: string;
  /** Full URL. */
  readonly url: string;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  readonly attempt: number;
  /** HTTP status. */
  readonly status: number;
  /**
   * A copy of the response headers, the token redacted (`location` also without userinfo and
   * query values).
   */
  readonly headers: Headers;
  /** The `x-request-id` response header, when present. */
  readonly requestId: string | undefined;
  /** Time from sending the attempt to reading its whole body, in ms. */
  readonly durationMs: number;
}

/** What `hooks.beforeRetry` receives before the client waits and retries. */
export interface CspwatchRetryContext {
  /** HTTP method. */
  readonly method: string;
  /** Full URL. */
  readonly url: string;
  /** The number of the attempt that failed (1 for the first). */
  readonly attempt: number;
  /** Why it failed. */
  readonly error: CspwatchError;
  /** How long the client waits before the next attempt, in ms. */
  readonly delayMs: number;
}

/** Hooks of {@link CspwatchClientOptions}; an error a hook throws ends the call with that error. */
export interface CspwatchHooks {
  /** Before each attempt is sent; may add or change headers (not `authorization`). */
  beforeRequest?: (request: CspwatchOutgoingRequest) => void | Promise<void>;
  /** After each response is read, error statuses included; read-only. */
  afterResponse?: (response: CspwatchResponseView) => void | Promise<void>;
  /** Before each retry's wait. */
  beforeRetry?: (retry: CspwatchRetryContext) => void | Promise<void>;
}

/** Options of {@link createCspwatchClient}. Validated when the client is created. */
export interface CspwatchClientOptions {
  /**
   * Base URL of the cspwatch API, without the `/v1` prefix (e.g. `https://api.example.com`).
   * Plain `http:` only to a loopback host, unless `dangerouslyAllowInsecureHttp` is set.
   * @default process.env.CSPWATCH_BASE_URL
   */
  baseUrl?: string;
  /** Bearer token (an OIDC access token), or a function returning one before every attempt. */
  token: string | CspwatchTokenProvider;
  /**
   * Sends the bearer token over plain `http:` to a host that is not loopback, where anyone on
   * the path can read it. Only for a trusted network you control.
   * @default false
   */
  dangerouslyAllowInsecureHttp?: boolean;
  /**
   * The `fetch` to use; when omitted, `globalThis.fetch` is looked up on every request.
   * @default globalThis.fetch
   */
  fetch?: typeof globalThis.fetch;
  /**
   * Time limit of one attempt in milliseconds (headers and body).
   * @default 30000
   */
  timeout?: number;
  /**
   * Time limit of a whole call including retries and waits, in milliseconds.
   * @default 120000
   */
  totalTimeout?: number;
  /**
   * How many times a failed attempt may be retried; `0` disables retries.
   * @default 2
   */
  maxRetries?: number;
  /**
   * The longest `Retry-After` the client waits for, in milliseconds; a longer one is thrown
   * at once as a {@link CspwatchRateLimitError} carrying `retryAfterMs`.
   * @default 60000
   */
  retryAfterCap?: number;
  /** Extra request headers. `authorization` is refused: use `token`. */
  headers?: Record<string, string>;
  /** Hooks around each attempt: `beforeRequest`, `afterResponse`, `beforeRetry`. */
  hooks?: CspwatchHooks;
  /**
   * Called after every attempt with redacted request details; errors it throws are ignored.
   * With `CSPWATCH_LOG=debug` in the environment and no logger, entries go to `console.debug`.
   */
  logger?: (entry: CspwatchRequestLogEntry) => void;
  /**
   * Source of randomness in [0, 1) for retry jitter; inject a fixed one in tests.
   * @default Math.random
   */
  random?: () => number;
  /**
   * The OpenTelemetry `TracerProvider` that records the client's spans (one per API call, one
   * child per HTTP attempt). Needs `@opentelemetry/api` installed; without it nothing is traced.
   * @default the global provider of `@opentelemetry/api` (none registered: nothing recorded)
   */
  tracerProvider?: CspwatchTracerProvider;
}

/** Defaults of every optional numeric option of {@link CspwatchClientOptions}. */
export const DEFAULT_CLIENT_OPTIONS = Object.freeze({
  /** Per-attempt time limit, ms. */
  timeout: 30_000,
  /** Time limit of a call including retries, ms. */
  totalTimeout: 120_000,
  /** Retries after the first attempt. */
  maxRetries: 2,
  /** Longest `Retry-After` waited for, ms. */
  retryAfterCap: 60_000,
  /** First backoff ceiling in ms; doubles each retry (full jitter). */
  retryBaseDelay: 500,
  /** Largest backoff ceiling in ms. */
  retryMaxDelay: 10_000,
} as const);

/** The `User-Agent` sent with every request. */
export const USER_AGENT = `cspwatch-sdk-js/${VERSION}`;

/** Options after validation, with defaults applied. Internal. */
export interface ResolvedOptions {
  baseUrl: string;
  /** `host[:port]` of the base URL, named in connection errors. */
  host: string;
  token: string | CspwatchTokenProvider;
  fetch: typeof globalThis.fetch;
  timeout: number;
  totalTimeout: number;
  maxRetries: number;
  retryAfterCap: number;
  retryBaseDelay: number;
  retryMaxDelay: number;
  headers: Record<string, string>;
  hooks: CspwatchHooks;
  logger: ((entry: CspwatchRequestLogEntry) => void) | undefined;
  random: () => number;
  tracerProvider: CspwatchTracerProvider | undefined;
}

const MAX_TIMER_MS = 2_147_483_647;

function environment(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  return env?.[name] || undefined;
}

const isLoopback = (hostname: string) =>
  hostname === 'localhost' ||
  hostname.endsWith('.localhost') ||
  hostname === '[::1]' ||
  /^127(?:\.\d{1,3}){3}$/.test(hostname);

function checkBaseUrl(
  issues: CspwatchFieldIssue[],
  raw: unknown,
  allowHttp: boolean,
): URL | undefined {
  if (raw === undefined) {
    issues.push({
      path: 'baseUrl',
      message: 'is required: pass `baseUrl` or set the CSPWATCH_BASE_URL environment variable',
    });
    return undefined;
  }
  const url = typeof raw === 'string' && URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    issues.push({ path: 'baseUrl', message: 'must be an absolute http(s) URL' });
    return undefined;
  }
  if (url.search || url.hash || url.username || url.password) {
    issues.push({ path: 'baseUrl', message: 'must not contain a query, fragment or credentials' });
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allowHttp) {
    issues.push({
      path: 'baseUrl',
      message: `plain http: sends the token unencrypted to ${url.host}: use https: (or dangerouslyAllowInsecureHttp: true)`,
    });
  }
  if (/\/v1\/*$/.test(url.pathname)) {
    // Built from the origin and path: a query or credentials, refused above, are not repeated.
    const suggested = url.origin + url.pathname.replace(/\/v1\/*$/, '');
    issues.push({
      path: 'baseUrl',
      message: `must not end with /v1, which the client adds (use ${suggested})`,
    });
  }
  return url;
}

function checkToken(issues: CspwatchFieldIssue[], token: unknown) {
  if (typeof token === 'function') return;
  if (typeof token !== 'string' || token.trim() === '') {
    issues.push({
      path: 'token',
      message: 'must be a non-empty string or a function returning one',
    });
  } else if (!isValidTokenValue(token)) {
    issues.push({ path: 'token', message: 'contains whitespace or control characters' });
  }
}

/** A token must be printable ASCII without spaces, so it fits in one header. Internal. */
export function isValidTokenValue(token: string): boolean {
  return /^[\x21-\x7e]+$/.test(token);
}

function checkHeaders(issues: CspwatchFieldIssue[], headers: unknown) {
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    issues.push({ path: 'headers', message: 'must be an object of header names to strings' });
    return;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'authorization') {
      issues.push({ path: `headers.${name}`, message: 'is set by the client: use `token`' });
    } else if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name) || typeof value !== 'string') {
      issues.push({
        path: `headers.${name}`,
        message: 'must be a valid header name with a string value',
      });
    } else if (/[\r\n\0]/.test(value)) {
      issues.push({ path: `headers.${name}`, message: 'must not contain line breaks' });
    }
  }
}

function checkDuration(issues: CspwatchFieldIssue[], name: string, value: unknown, min: number) {
  if (value === undefined) return;
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < min ||
    value > MAX_TIMER_MS
  ) {
    issues.push({ path: name, message: `must be an integer from ${min} to ${MAX_TIMER_MS} (ms)` });
  }
}

function checkMaxRetries(issues: CspwatchFieldIssue[], value: unknown) {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 10) {
    issues.push({ path: 'maxRetries', message: 'must be an integer from 0 to 10' });
  }
}

/**
 * Checks the per-call options (`timeout`, `maxRetries`, `headers`; the signal is checked by
 * the caller), recording issues under the same names as the client options. Internal.
 */
export function checkRequestOptions(issues: CspwatchFieldIssue[], given: CspwatchRequestOptions) {
  checkDuration(issues, 'timeout', given.timeout, 1);
  checkMaxRetries(issues, given.maxRetries);
  if (given.headers !== undefined) checkHeaders(issues, given.headers);
}

/** Validates the options and applies defaults; throws {@link CspwatchInputError}. Internal. */
export function resolveOptions(options: CspwatchClientOptions): ResolvedOptions {
  const issues: CspwatchFieldIssue[] = [];
  const given = options ?? ({} as CspwatchClientOptions);
  const url = checkBaseUrl(
    issues,
    given.baseUrl ?? environment('CSPWATCH_BASE_URL'),
    given.dangerouslyAllowInsecureHttp === true,
  );
  checkToken(issues, given.token);
  const merged = { ...DEFAULT_CLIENT_OPTIONS, ...withoutUndefined(given) };
  checkDuration(issues, 'timeout', merged.timeout, 1);
  checkDuration(issues, 'totalTimeout', merged.totalTimeout, 1);
  checkDuration(issues, 'retryAfterCap', merged.retryAfterCap, 0);
  checkMaxRetries(issues, merged.maxRetries);
  const hooks = given.hooks ?? {};
  const functions = { fetch: given.fetch, logger: given.logger, random: given.random };
  for (const [name, value] of [...Object.entries(functions), ...Object.entries(hooks)]) {
    if (value !== undefined && typeof value !== 'function') {
      issues.push({
        path: name in functions ? name : `hooks.${name}`,
        message: 'must be a function',
      });
    }
  }
  const headers = given.headers ?? {};
  checkHeaders(issues, headers);
  const { tracerProvider } = given;
  if (
    tracerProvider !== undefined &&
    typeof (tracerProvider as { getTracer?: unknown } | null)?.getTracer !== 'function'
  ) {
    issues.push({ path: 'tracerProvider', message: 'must be an OpenTelemetry TracerProvider' });
  }
  if (issues.length > 0 || !url) throw new CspwatchInputError(issues, 'invalid_options');
  const customFetch = given.fetch;
  return {
    ...merged,
    baseUrl: url.href.replace(/\/+$/, ''),
    host: url.host,
    token: given.token,
    // Looked up per request so msw and test doubles installed later still intercept.
    fetch: (input, init) => (customFetch ?? globalThis.fetch)(input, init),
    headers: { ...headers },
    hooks: { ...hooks },
    logger: given.logger ?? (environment('CSPWATCH_LOG') === 'debug' ? debugLogger : undefined),
    random: given.random ?? Math.random,
    tracerProvider,
  };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
