import type { CspwatchTracerProvider } from '../telemetry/tracing';
import { VERSION } from '../version';
import type { CspwatchRequestLogEntry } from './debug-log';
import type { CspwatchHooks } from './hooks';

/*
 * The options of a client and of a call, their defaults, and the options after validation.
 * They are checked in resolve-options.ts.
 */

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
