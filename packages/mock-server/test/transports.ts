import { setupServer } from 'msw/node';
import {
  createMockService,
  type MockService,
  type MockServiceOptions,
  startMockServer,
} from '../src/index';
import { createMockHandlers } from '../src/msw';

/** A running mock service behind one transport, as the behavioural suite sees it. */
export interface Harness {
  baseUrl: string;
  service: MockService;
  close(): Promise<void>;
}

/** How to start the service over one transport. */
export interface Transport {
  name: string;
  start(options?: Omit<MockServiceOptions, 'baseUrl'>): Promise<Harness>;
}

/** The real HTTP server on 127.0.0.1, port 0. */
export const httpTransport: Transport = {
  name: 'http',
  async start(options) {
    const server = await startMockServer(options);
    return { baseUrl: server.url, service: server.service, close: () => server.close() };
  },
};

/** msw handlers in this process (global fetch is intercepted while the harness is open). */
export const mswTransport: Transport = {
  name: 'msw',
  async start(options) {
    const baseUrl = 'https://api.cspwatch.test';
    const service = createMockService({ ...options, baseUrl });
    const server = setupServer(...createMockHandlers({ baseUrl, service }));
    server.listen({ onUnhandledRequest: 'error' });
    return {
      baseUrl,
      service,
      close: async () => {
        service.inbox.releaseHanging();
        server.close();
      },
    };
  },
};
