import type { Requester } from '../request';
import {
  type CreateWebsiteInput,
  CreateWebsiteInputSchema,
  type Website,
  WebsiteSchema,
} from '../schemas';
import { InputChecker } from '../validate-input';

/** Per-call options of {@link WebsitesResource.create}. */
export interface CreateWebsiteOptions {
  /** Aborts the request and any retry wait. */
  signal?: AbortSignal;
}

/**
 * `client.websites`: websites of a workspace.
 *
 * @example
 * ```ts
 * const site = await client.websites.create('ws_123', { name: 'Shop', url: 'https://shop.example.com' });
 * ```
 */
export interface WebsitesResource {
  /**
   * Registers a website (`POST /v1/workspaces/{workspaceId}/websites`) and returns it with
   * its `endpointUrl`. Any 2xx is success. Retried only when the server cannot have acted
   * on the request (429, or nothing was sent), so a retry never creates a second website.
   *
   * @throws {@link CspwatchInputError} before any request when an argument breaks a rule.
   */
  create(
    workspaceId: string,
    input: CreateWebsiteInput,
    options?: CreateWebsiteOptions,
  ): Promise<Website>;
}

/** Creates the `websites` resource. Internal. */
export function createWebsitesResource(request: Requester): WebsitesResource {
  return {
    async create(workspaceId, input, given) {
      const check = new InputChecker();
      const segment = check.workspaceId(workspaceId);
      const options = check.options(given);
      const body = check.schema(CreateWebsiteInputSchema, input, '');
      check.signal(options.signal);
      check.throwIfAny();
      return request({
        method: 'POST',
        path: `/v1/workspaces/${segment}/websites`,
        body,
        schema: WebsiteSchema,
        signal: options.signal,
      });
    },
  };
}
