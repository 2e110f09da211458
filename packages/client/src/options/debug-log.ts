/*
 * The logger used when `CSPWATCH_LOG=debug` is set and no `logger` was given: one line and
 * the entry per attempt on `console.debug`: the same redacted entry every logger receives.
 */

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
  /**
   * Response headers, the token redacted (`location` also without userinfo and query values);
   * `undefined` when no response arrived.
   */
  responseHeaders: Record<string, string> | undefined;
  /** The error code when the attempt failed. */
  errorCode: string | undefined;
}

/** Writes one attempt to `console.debug`. Internal. */
export function debugLogger(entry: CspwatchRequestLogEntry): void {
  console.debug(
    `[cspwatch] ${entry.method} ${entry.path} -> ${entry.status ?? entry.errorCode}`,
    entry,
  );
}
