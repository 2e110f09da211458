import type { CspwatchClientOptions } from './options/client-options';
import { resolveOptions } from './options/resolve-options';
import { type ApiKeysResource, createApiKeysResource } from './resources/api-keys';
import { createWebsitesResource, type WebsitesResource } from './resources/websites';
import { createTransport } from './transport/transport';

/** A cspwatch API client; create it with {@link createCspwatchClient}. */
export interface CspwatchClient {
  /** API keys of a workspace. */
  readonly apiKeys: ApiKeysResource;
  /** Websites of a workspace. */
  readonly websites: WebsitesResource;
}

/**
 * Creates a cspwatch API client. Options are validated here: a missing base URL (and no
 * `CSPWATCH_BASE_URL`), plain `http:` to a host that is not loopback, a missing token or an
 * out-of-range number throws {@link CspwatchInputError} with code `invalid_options`.
 *
 * @example
 * ```ts
 * import { createCspwatchClient } from '@cspwatch/client';
 *
 * const client = createCspwatchClient({
 *   baseUrl: 'https://api.cspwatch.example',
 *   token: async ({ forceRefresh }) => oidc.getAccessToken({ forceRefresh }),
 * });
 * for await (const key of client.apiKeys.list('ws_123')) console.log(key.name);
 * ```
 */
export function createCspwatchClient(options: CspwatchClientOptions): CspwatchClient {
  const send = createTransport(resolveOptions(options));
  return Object.freeze({
    apiKeys: createApiKeysResource(send),
    websites: createWebsitesResource(send),
  });
}
