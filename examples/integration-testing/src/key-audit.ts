import type { ApiKey, CspwatchClient } from '@cspwatch/client';

/** Options of {@link findUnusedApiKeys}. */
export interface UnusedKeyOptions {
  /** A key unused for this many days (or never used) is reported. */
  unusedForDays: number;
  /** The current time, injectable for tests. @default Date.now() */
  now?: number;
}

const DAY_MS = 86_400_000;

/**
 * "Your" code under test: walks every API key of a workspace (all pages) and returns the
 * keys that were never used or not used for `unusedForDays` days, oldest use first.
 */
export async function findUnusedApiKeys(
  client: CspwatchClient,
  workspaceId: string,
  options: UnusedKeyOptions,
): Promise<ApiKey[]> {
  const cutoff = (options.now ?? Date.now()) - options.unusedForDays * DAY_MS;
  const unused: ApiKey[] = [];
  for await (const key of client.apiKeys.list(workspaceId, { limit: 100 })) {
    const lastUsed = key.lastUsedAt ? Date.parse(key.lastUsedAt) : Number.NEGATIVE_INFINITY;
    if (lastUsed < cutoff) unused.push(key);
  }
  const lastUse = (key: ApiKey) => (key.lastUsedAt ? Date.parse(key.lastUsedAt) : 0);
  return unused.sort((a, b) => lastUse(a) - lastUse(b));
}
