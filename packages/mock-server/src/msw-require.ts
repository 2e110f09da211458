/**
 * msw request handlers of the cspwatch mock service (the CommonJS build of
 * `@cspwatch/mock-server/msw`; see msw.ts). Needs `msw` 2; without it, requiring this entry
 * throws a `MockServerError` `missing_peer` that says what to install.
 *
 * @packageDocumentation
 */
import type * as Msw from 'msw';
import {
  createHandlersWith,
  type MockHandlersOptions,
  missingMsw,
} from './transports/msw-handlers';

function loadMsw(): typeof Msw {
  try {
    return require('msw');
  } catch (error) {
    return missingMsw(error);
  }
}
const { http } = loadMsw();

export type { MockHandlersOptions };

/**
 * Creates msw handlers that answer every request to `baseUrl` from the mock service.
 *
 * @example
 * ```ts
 * const { setupServer } = require('msw/node');
 * const { createMockHandlers } = require('@cspwatch/mock-server/msw');
 *
 * const server = setupServer(...createMockHandlers({ baseUrl: 'https://api.cspwatch.test' }));
 * ```
 */
export function createMockHandlers(options: MockHandlersOptions): Msw.RequestHandler[] {
  return createHandlersWith(http, options);
}
