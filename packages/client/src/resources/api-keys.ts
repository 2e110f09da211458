import { type PageIterable, paginate } from '../paginate';
import type { Requester } from '../request';
import { type ApiKey, type ApiKeyPage, ApiKeyPageSchema } from '../schemas';
import { InputChecker } from '../validate-input';

/** Options of {@link ApiKeysResource.list}. */
export interface ListApiKeysOptions {
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
export function createApiKeysResource(request: Requester): ApiKeysResource {
  return {
    list(workspaceId, given) {
      const check = new InputChecker();
      const segment = check.workspaceId(workspaceId);
      const options = check.options(given);
      check.integer('limit', options.limit, 1, 200);
      check.string('q', options.q, 255);
      check.string('cursor', options.cursor, 4096, 1);
      check.signal(options.signal);
      check.throwIfAny();
      const { limit, q, signal } = options;
      const fetchPage = (cursor: string | undefined) =>
        request({
          method: 'GET',
          path: `/v1/workspaces/${segment}/api-keys`,
          query: { limit, q, cursor },
          schema: ApiKeyPageSchema,
          signal,
        });
      return paginate<ApiKey, ApiKeyPage>(fetchPage, options.cursor, signal);
    },
  };
}
