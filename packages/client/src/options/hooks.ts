import type { CspwatchError } from '../errors/cspwatch-error';

/*
 * The hooks around each attempt, and what each one receives. The transport calls them.
 */

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
