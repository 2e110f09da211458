import { type CspwatchFieldIssue, CspwatchInputError } from './errors';
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

/** What the `logger` hook receives after every attempt. Never contains the token. */
export interface CspwatchRequestLogEntry {
  /** HTTP method. */
  method: string;
  /** Path and query string of the request, without the base URL. */
  path: string;
  /** Response status, or `undefined` when no response arrived. */
  status: number | undefined;
  /** Time from sending to receiving the response (or failing), in milliseconds. */
  durationMs: number;
  /** The `x-request-id` response header, when present. */
  requestId: string | undefined;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  attempt: number;
  /**
   * Request headers as sent, with `authorization`, `proxy-authorization`, `cookie` and
   * `x-api-key` replaced by `[redacted]`.
   */
  requestHeaders: Record<string, string>;
  /** The error code when the attempt failed. */
  errorCode: string | undefined;
}

/** Options of {@link createCspwatchClient}. Validated when the client is created. */
export interface CspwatchClientOptions {
  /**
   * Base URL of the cspwatch API, without the `/v1` prefix (e.g. `https://api.example.com`).
   * @default process.env.CSPWATCH_BASE_URL
   */
  baseUrl?: string;
  /** Bearer token (an OIDC access token), or a function returning one before every attempt. */
  token: string | CspwatchTokenProvider;
  /**
   * The `fetch` to use; when omitted, `globalThis.fetch` is looked up on every request.
   * @default globalThis.fetch
   */
  fetch?: typeof globalThis.fetch;
  /**
   * Time limit of one attempt in milliseconds (until the response headers arrive).
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
  /** Called after every attempt with redacted request details; errors it throws are ignored. */
  logger?: (entry: CspwatchRequestLogEntry) => void;
  /**
   * Source of randomness in [0, 1) for retry jitter; inject a fixed one in tests.
   * @default Math.random
   */
  random?: () => number;
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
  token: string | CspwatchTokenProvider;
  fetch: typeof globalThis.fetch;
  timeout: number;
  totalTimeout: number;
  maxRetries: number;
  retryAfterCap: number;
  retryBaseDelay: number;
  retryMaxDelay: number;
  headers: Record<string, string>;
  logger: ((entry: CspwatchRequestLogEntry) => void) | undefined;
  random: () => number;
}

const MAX_TIMER_MS = 2_147_483_647;

function environmentBaseUrl(): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  return env?.CSPWATCH_BASE_URL || undefined;
}

function checkDuration(issues: CspwatchFieldIssue[], name: string, value: number, min: number) {
  if (!Number.isInteger(value) || value < min || value > MAX_TIMER_MS) {
    issues.push({ path: name, message: `must be an integer from ${min} to ${MAX_TIMER_MS} (ms)` });
  }
}

function checkBaseUrl(issues: CspwatchFieldIssue[], raw: string | undefined): string {
  if (raw === undefined) {
    issues.push({
      path: 'baseUrl',
      message: 'is required: pass `baseUrl` or set the CSPWATCH_BASE_URL environment variable',
    });
    return '';
  }
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    issues.push({ path: 'baseUrl', message: 'must be an absolute http(s) URL' });
    return '';
  }
  if (url.search || url.hash || url.username || url.password) {
    issues.push({ path: 'baseUrl', message: 'must not contain a query, fragment or credentials' });
  }
  return url.href.replace(/\/+$/, '');
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

function checkHeaders(issues: CspwatchFieldIssue[], headers: Record<string, string>) {
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

/** Validates the options and applies defaults; throws {@link CspwatchInputError}. Internal. */
export function resolveOptions(options: CspwatchClientOptions): ResolvedOptions {
  const issues: CspwatchFieldIssue[] = [];
  const given = options ?? ({} as CspwatchClientOptions);
  const baseUrl = checkBaseUrl(issues, given.baseUrl ?? environmentBaseUrl());
  checkToken(issues, given.token);
  const merged = { ...DEFAULT_CLIENT_OPTIONS, ...withoutUndefined(given) };
  checkDuration(issues, 'timeout', merged.timeout, 1);
  checkDuration(issues, 'totalTimeout', merged.totalTimeout, 1);
  checkDuration(issues, 'retryAfterCap', merged.retryAfterCap, 0);
  if (!Number.isInteger(merged.maxRetries) || merged.maxRetries < 0 || merged.maxRetries > 10) {
    issues.push({ path: 'maxRetries', message: 'must be an integer from 0 to 10' });
  }
  for (const name of ['fetch', 'logger', 'random'] as const) {
    if (given[name] !== undefined && typeof given[name] !== 'function') {
      issues.push({ path: name, message: 'must be a function' });
    }
  }
  const headers = given.headers ?? {};
  if (typeof headers !== 'object' || headers === null) {
    issues.push({ path: 'headers', message: 'must be an object of header names to strings' });
  } else {
    checkHeaders(issues, headers);
  }
  if (issues.length > 0) throw new CspwatchInputError(issues, 'invalid_options');
  const customFetch = given.fetch;
  return {
    ...merged,
    baseUrl,
    token: given.token,
    // Looked up per request so msw and test doubles installed later still intercept.
    fetch: (input, init) => (customFetch ?? globalThis.fetch)(input, init),
    headers: { ...headers },
    logger: given.logger,
    random: given.random ?? Math.random,
  };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
