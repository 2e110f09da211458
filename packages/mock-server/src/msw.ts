/**
 * msw request handlers of the cspwatch mock service, for in-process tests: the same core as
 * the HTTP server, so both answer alike. Needs `msw` 2 (an optional peer dependency).
 *
 * @packageDocumentation
 */
import { http, type RequestHandler } from 'msw';
import { createMockService, type MockService } from './app';
import { MockServerError } from './errors';
import { checkBaseUrl } from './options';

/** Options of {@link createMockHandlers}. */
export interface MockHandlersOptions {
  /** The origin your code under test calls, e.g. `https://api.cspwatch.test`. */
  baseUrl: string;
  /** The service to serve; create it with the same `baseUrl`. @default createMockService({ baseUrl }) */
  service?: MockService;
}

/**
 * Creates msw handlers that answer every request to `baseUrl` from the mock service. A
 * dropped connection (fault injection, hung inbox released) becomes an msw network error.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMockService } from '@cspwatch/mock-server';
 * import { createMockHandlers } from '@cspwatch/mock-server/msw';
 *
 * const baseUrl = 'https://api.cspwatch.test';
 * const service = createMockService({ baseUrl });
 * const server = setupServer(...createMockHandlers({ baseUrl, service }));
 * server.listen({ onUnhandledRequest: 'error' });
 * ```
 */
export function createMockHandlers(options: MockHandlersOptions): RequestHandler[] {
  const baseUrl = checkBaseUrl(options?.baseUrl);
  const service = options.service ?? createMockService({ baseUrl });
  if (service.baseUrl !== baseUrl) {
    throw new MockServerError(
      'invalid_options',
      `The service was created with baseUrl ${service.baseUrl} but the handlers get ${baseUrl}; use the same origin.`,
    );
  }
  return [http.all(`${baseUrl}/*`, ({ request }) => service.fetch(request))];
}
