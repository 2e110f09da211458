import { inspect } from 'node:util';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createCspwatchClient } from '../src/create-client';
import type { CspwatchClientOptions } from '../src/options/client-options';
import type { CspwatchRequestLogEntry } from '../src/options/debug-log';
import { BASE_URL } from './fixtures';

/*
 * What the secret-leak suites (token-leaks, url-secrets) share: an msw server, a client that
 * logs every attempt and does not retry, and everything an error shows when printed.
 */

/** The list endpoint the leak suites answer on. */
export const LIST_URL = `${BASE_URL}/v1/workspaces/ws_1/api-keys`;

/**
 * Starts an msw server for the calling suite and returns a client factory whose log entries
 * are collected in `logged` (emptied after each test), and `failure`, which lists one page
 * and resolves with what it threw.
 */
export function useLeakSuite(token: CspwatchClientOptions['token']) {
  const server = setupServer();
  const logged: CspwatchRequestLogEntry[] = [];
  beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
  afterEach(() => {
    server.resetHandlers();
    logged.length = 0;
  });
  afterAll(() => server.close());
  const client = (options: Partial<CspwatchClientOptions> = {}) =>
    createCspwatchClient({
      baseUrl: BASE_URL,
      token,
      maxRetries: 0,
      logger: (entry) => logged.push(entry),
      ...options,
    });
  const failure = (options: Partial<CspwatchClientOptions> = {}) =>
    client(options)
      .apiKeys.list('ws_1')
      .firstPage()
      .catch((e: unknown) => e);
  return { server, logged, failure };
}

/**
 * Everything a value shows when printed or logged: `util.inspect` (hidden fields too), its
 * string and JSON forms, and for an error its message, stack and `cause` chain; the headers
 * it carries, if any.
 */
export function printed(value: unknown): string {
  const parts = [inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true })];
  for (let current = value, depth = 0; current !== undefined && depth < 10; depth++) {
    parts.push(String(current), JSON.stringify(current) ?? '');
    if (current instanceof Error) parts.push(current.message, current.stack ?? '');
    const headers = (current as { headers?: unknown } | null)?.headers;
    if (headers instanceof Headers) parts.push(JSON.stringify([...headers]));
    current = (current as { cause?: unknown } | null)?.cause;
  }
  return parts.join('\n');
}
