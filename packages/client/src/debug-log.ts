import type { CspwatchRequestLogEntry } from './options';

/*
 * The logger used when `CSPWATCH_LOG=debug` is set and no `logger` was given: one line per
 * attempt on `console.debug`, from the same redacted entry every logger receives.
 */

/** Writes one attempt to `console.debug`. Internal. */
export function debugLogger(entry: CspwatchRequestLogEntry): void {
  const outcome = entry.status === undefined ? 'no response' : String(entry.status);
  const failed = entry.errorCode ? ` ${entry.errorCode}` : '';
  const id = entry.requestId ? ` request id ${entry.requestId}` : '';
  console.debug(
    `[cspwatch] ${entry.method} ${entry.path} -> ${outcome}${failed} in ${entry.durationMs} ms (attempt ${entry.attempt})${id}`,
    { request: entry.requestHeaders, response: entry.responseHeaders },
  );
}
