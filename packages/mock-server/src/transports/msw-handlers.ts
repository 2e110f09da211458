import type { http as mswHttp, RequestHandler } from 'msw';
import { createMockService, type MockService } from '../core/app';
import { MockServerError } from '../errors';
import { checkBaseUrl } from '../options';

/** Options of `createMockHandlers` (`@cspwatch/mock-server/msw`). */
export interface MockHandlersOptions {
  /** The origin your code under test calls, e.g. `https://api.cspwatch.test`. */
  baseUrl: string;
  /** The service to serve; create it with the same `baseUrl`. @default createMockService({ baseUrl }) */
  service?: MockService;
}

/** The handlers, made with the `http` of the msw copy the entry loaded. */
export function createHandlersWith(
  http: typeof mswHttp,
  options: MockHandlersOptions,
): RequestHandler[] {
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

/**
 * Turns "msw cannot be found" into a {@link MockServerError} `missing_peer` that says what to
 * install; any other error is thrown as it is.
 */
export function missingMsw(error: unknown): never {
  const code = (error as { code?: unknown } | null)?.code;
  if (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    /['"]msw['"]/.test(String((error as Error).message))
  ) {
    throw new MockServerError(
      'missing_peer',
      '@cspwatch/mock-server/msw needs msw 2, an optional peer dependency that is not installed: npm install --save-dev msw@^2 (or pnpm add -D msw@^2).',
      { cause: error },
    );
  }
  throw error;
}
