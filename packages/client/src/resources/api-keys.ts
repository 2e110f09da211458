import type * as z from 'zod/mini';
import type { CspwatchRequestOptions } from '../options/client-options';
import { type PageIterable, paginate } from '../pagination/paginate';
import { type ApiKey, ApiKeyPageSchema } from '../schemas';
import type { Transport } from '../transport/transport';
import { InputChecker } from '../validation/input-checker';

/** One page of API keys: `data`, `pagination` (`nextCursor`, `hasMore`, `total`), `requestId`. */
export type ApiKeyPage = z.infer<typeof ApiKeyPageSchema> & {
  /** The `x-request-id` of the response that carried this page. */
  requestId: string | undefined;
};

/** Options of {@link ApiKeysResource.list}; `timeout`, `maxRetries` and `headers` apply to each page. */
export interface ListApiKeysOptions extends CspwatchRequestOptions {
  /**
   * Page size (1 to 200). It only sets how many keys each request returns; cap the total
   * with `toArray({ max })` or by breaking out of the loop.
   * @default 50 (chosen by the server)
   */
  limit?: number;
  /** Only keys whose name contains this text (at most 255 characters). */
  q?: string;
  /** Start from a `nextCursor` you stored earlier (or from `error.cursor` to resume). */
  cursor?: string;
  /** Aborts the iteration, the request in flight and any retry wait. */
  signal?: AbortSignal;
}

/**
 * `client.apiKeys`: the API keys of a workspace.
 *
 * @example
 * ```ts
 * for await (const key of client.apiKeys.list('ws_123', { q: 'ci' })) console.log(key.name);
 * ```
 */
export interface ApiKeysResource {
  /**
   * Lists API keys (`GET /v1/workspaces/{workspaceId}/api-keys`) as a lazy iterable across
   * pages. Arguments are checked at once; nothing is fetched until you iterate.
   *
   * @throws {@link CspwatchInputError} when an argument breaks a documented rule.
   */
  list(workspaceId: string, options?: ListApiKeysOptions): PageIterable<ApiKey, ApiKeyPage>;
}

/** Creates the `apiKeys` resource. Internal. */
export function createApiKeysResource(send: Transport): ApiKeysResource {
  return {
    list(workspaceId, given) {
      const check = new InputChecker();
      const segment = check.workspaceId(workspaceId);
      const options = check.options(given);
      check.integer('limit', options.limit, 1, 200);
      check.string('q', options.q, 255);
      // Opaque: any non-empty cursor the service issued is taken back, whatever its length.
      check.string('cursor', options.cursor, Number.POSITIVE_INFINITY, 1);
      check.requestOptions(options);
      check.throwIfAny();
      const { limit, q, cursor: start, ...call } = options;
      const fetchPage = async (cursor: string | undefined): Promise<ApiKeyPage> => {
        const { data, response } = await send({
          operation: 'listApiKeys',
          method: 'GET',
          route: '/v1/workspaces/{workspaceId}/api-keys',
          path: `/v1/workspaces/${segment}/api-keys`,
          query: { limit, q, cursor },
          schema: ApiKeyPageSchema,
          options: call,
          iteration: { cursor },
        });
        return Object.assign(data, { requestId: response.requestId });
      };
      return paginate<ApiKey, ApiKeyPage>(fetchPage, start, options.signal);
    },
  };
}
