/**
 * What an integrator without our SDK writes: typed fetch clients from `openapi-fetch`, over
 * types that `openapi-typescript` generated from the shipped documents
 * (`@cspwatch/client/openapi.json` and `@cspwatch/mock-server/openapi.json`).
 */
import createClient from 'openapi-fetch';
import type { paths as ServicePaths } from './generated/cspwatch-api';
import type { paths as MockPaths } from './generated/cspwatch-mock';

/** A typed client of the cspwatch REST API. */
export type ServiceClient = ReturnType<typeof createClient<ServicePaths>>;
/** A typed client of the mock server's own surface (control API, trigger, inbox). */
export type MockControlClient = ReturnType<typeof createClient<MockPaths>>;

/** Creates a client of the REST API that sends `token` as the bearer token. */
export function createServiceClient(baseUrl: string, token: string): ServiceClient {
  return createClient<ServicePaths>({ baseUrl, headers: { authorization: `Bearer ${token}` } });
}

/** Creates a client of the mock's control API; `controlToken` only when the mock has one. */
export function createMockControlClient(baseUrl: string, controlToken?: string): MockControlClient {
  return createClient<MockPaths>({
    baseUrl,
    ...(controlToken === undefined ? {} : { headers: { authorization: `Bearer ${controlToken}` } }),
  });
}
