import type { MockApiKey, MockUser, MockWebsite, MockWorkspace } from './resources';

/** A deep copy of the whole state, for assertions in tests. */
export interface MockStoreSnapshot {
  /** Every workspace with its plan. */
  workspaces: MockWorkspace[];
  /** Every user, with their token and roles. */
  users: MockUser[];
  /** Every API key, newest first. */
  apiKeys: MockApiKey[];
  /** Every website, in creation order. */
  websites: MockWebsite[];
}

/** A user token issued by {@link MockStore.issueUserToken}. */
export interface IssuedUserToken {
  /** The bearer token. */
  token: string;
  /** When it stops working (ISO 8601), or `null` for a token valid until the next reset. */
  expiresAt: string | null;
}

/** Fields a test may set on a key it adds; the rest is generated. */
export type AddApiKeyInput = Partial<Omit<MockApiKey, 'id' | 'workspaceId' | 'createdByUser'>>;

/**
 * The in-memory state of the mock service, for tests: inspect it, or change it between
 * requests (e.g. create or delete keys between two pages of a listing).
 *
 * @example
 * ```ts
 * const { store } = server.service;
 * const key = store.addApiKey(server.workspaceIds.main, { name: 'CI deploy' });
 * store.deleteApiKey(key.id);
 * expect(store.snapshot().apiKeys).toHaveLength(60);
 * ```
 */
export interface MockStore {
  /** Returns a deep copy of the whole state. */
  snapshot(): MockStoreSnapshot;
  /**
   * Adds an API key to a workspace, created now unless `createdAt` is given; the other
   * fields are generated unless given. Throws `unknown_workspace` or `invalid_options`.
   */
  addApiKey(workspaceId: string, input?: AddApiKeyInput): MockApiKey;
  /** Deletes an API key; returns whether it existed. A deleted key's token stops working. */
  deleteApiKey(id: string): boolean;
  /** Sets a workspace's website limit until the next reset. Throws `unknown_workspace` or `invalid_options`. */
  setWebsiteLimit(workspaceId: string, limit: number): void;
  /**
   * Issues a fresh access token for a user, valid until the next reset, or for `ttlSeconds`
   * (1 s to a year) when given. Throws `unknown_user` or `invalid_options`.
   */
  issueUserToken(userId: string, ttlSeconds?: number): IssuedUserToken;
  /** Issues a fresh `cwk_` token for an API key; it stops working when the key is deleted. Throws `unknown_api_key`. */
  issueApiKeyToken(apiKeyId: string): string;
  /**
   * Ends a token: from now on it gets `401 invalid_token` (with `token_expired` or
   * `token_revoked` in the detail), so a client's refresh path can be tested. Returns
   * whether the token was one that authenticated.
   */
  endToken(token: string, status: 'expired' | 'revoked'): boolean;
}
