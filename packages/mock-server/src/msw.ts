/**
 * msw request handlers of the cspwatch mock service, for in-process tests: the same core as
 * the HTTP server, so both answer alike. Needs `msw` 2 (an optional peer dependency); without
 * it, importing this entry throws a `MockServerError` `missing_peer` that says what to install.
 *
 * @packageDocumentation
 */
import type { RequestHandler } from 'msw';
import {
  createHandlersWith,
  type MockHandlersOptions,
  missingMsw,
} from './transports/msw-handlers';

// ESM build: loaded here, not by a static import, so a missing msw is our typed error rather
// than the loader's. (msw-require.ts is the CommonJS build of this entry.)
const { http } = await import('msw').catch(missingMsw);

export type { MockHandlersOptions };

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
  return createHandlersWith(http, options);
}
