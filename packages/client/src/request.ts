import type * as z from 'zod/mini';
import { runAttempt } from './attempt';
import { CspwatchApiError } from './errors';
import type { ResolvedOptions } from './options';
import { backoffDelay, sleep } from './retry';

/*
 * One API call: attempts in a retry loop. GETs are retried on transport failures, attempt
 * timeouts and 408/429/5xx; the POST only when the server cannot have acted on it (429, or
 * nothing was sent). A 401 asks a token function for a fresh token once.
 */

/** What a resource asks of the requester. Internal. */
export interface RequestSpec<T extends z.ZodMiniType> {
  method: 'GET' | 'POST';
  /** Path below the base URL, already encoded, e.g. `/v1/workspaces/w1/api-keys`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  schema: T;
  signal: AbortSignal | undefined;
}

/** Sends API calls with the client's options. Internal. */
export type Requester = <T extends z.ZodMiniType>(spec: RequestSpec<T>) => Promise<z.output<T>>;

function buildQuery(query: RequestSpec<z.ZodMiniType>['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Creates the function that performs one API call with retries. Internal. */
export function createRequester(options: ResolvedOptions): Requester {
  return async function request<T extends z.ZodMiniType>(
    spec: RequestSpec<T>,
  ): Promise<z.output<T>> {
    const { signal } = spec;
    const base = {
      method: spec.method,
      pathWithQuery: spec.path + buildQuery(spec.query),
      body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
      schema: spec.schema,
      signal,
      deadline: Date.now() + options.totalTimeout,
    };
    let retries = 0;
    let refreshed = false;
    let forceRefresh = false;
    for (let number = 1; ; number++) {
      signal?.throwIfAborted();
      const outcome = await runAttempt(options, { ...base, number, forceRefresh });
      if (outcome.ok) return outcome.value;
      const { error } = outcome;
      if (outcome.refreshToken && !refreshed) {
        refreshed = true;
        forceRefresh = true;
        continue;
      }
      forceRefresh = false;
      if (!outcome.retryable || retries >= options.maxRetries) throw error;
      const retryAfter = error instanceof CspwatchApiError ? error.retryAfterMs : undefined;
      // A wait longer than the cap is the caller's decision: throw at once, carrying it.
      if (retryAfter !== undefined && retryAfter > options.retryAfterCap) throw error;
      const wait =
        retryAfter ??
        backoffDelay(retries, options.random, options.retryBaseDelay, options.retryMaxDelay);
      if (Date.now() + wait >= base.deadline) throw error;
      await sleep(wait, signal);
      retries++;
    }
  };
}
