import { type CspwatchPromise, toCspwatchPromise } from '../api-promise';
import type { CspwatchRequestOptions } from '../options/client-options';
import {
  type CreateWebsiteInput,
  CreateWebsiteInputSchema,
  type Website,
  WebsiteSchema,
} from '../schemas';
import type { Transport } from '../transport/transport';
import { InputChecker } from '../validation/input-checker';

/** Per-call options of {@link WebsitesResource.create}. */
export interface CreateWebsiteOptions extends CspwatchRequestOptions {}

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
   * its `endpointUrl`; `.withResponse()` adds the response facts. Any 2xx is success.
   * Retried only when the server cannot have acted on the request (429, or nothing was
   * sent), so a retry never creates a second website.
   *
   * @throws {@link CspwatchInputError} before any request when an argument breaks a rule.
   */
  create(
    workspaceId: string,
    input: CreateWebsiteInput,
    options?: CreateWebsiteOptions,
  ): CspwatchPromise<Website>;
}

/** Creates the `websites` resource. Internal. */
export function createWebsitesResource(send: Transport): WebsitesResource {
  return {
    create(workspaceId, input, given) {
      const check = new InputChecker();
      const segment = check.workspaceId(workspaceId);
      const options = check.options(given);
      const body = check.schema(CreateWebsiteInputSchema, input);
      check.requestOptions(options);
      if (check.issues.length > 0) return toCspwatchPromise(Promise.reject(check.error()));
      return toCspwatchPromise(
        send({
          operation: 'createWebsite',
          method: 'POST',
          route: '/v1/workspaces/{workspaceId}/websites',
          path: `/v1/workspaces/${segment}/websites`,
          body,
          schema: WebsiteSchema,
          options,
        }),
      );
    },
  };
}
