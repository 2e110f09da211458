import type { CspwatchRequestLogEntry } from './options';

/*
 * The logger used when `CSPWATCH_LOG=debug` is set and no `logger` was given: one line and
 * the entry per attempt on `console.debug`: the same redacted entry every logger receives.
 */

/** Writes one attempt to `console.debug`. Internal. */
export function debugLogger(entry: CspwatchRequestLogEntry): void {
  console.debug(
    `[cspwatch] ${entry.method} ${entry.path} -> ${entry.status ?? entry.errorCode}`,
    entry,
  );
}
