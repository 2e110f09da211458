import { issue } from '@cspwatch/internal';
import { MockServerError } from '../errors';
import { requireValid, throwIfIssues } from '../options';
import { tokenTtlSeconds, websiteLimit } from '../rules/fields';
import { createFixtures, type Fixtures, makeApiKey, type SeedState } from './fixtures';
import { compareKeys } from './key-order';
import { createPrng, type Prng } from './prng';
import type { MockApiKey, MockUser, MockWebsite, MockWorkspace } from './resources';
import type { AddApiKeyInput, MockStore, MockStoreSnapshot } from './store-types';
import { type EndedTokenStatus, TokenRegistry } from './tokens';

/** Who a bearer token belongs to, or why a once-valid token no longer works. */
export type Principal =
  | { kind: 'user'; user: MockUser }
  | { kind: 'api_key'; workspaceId: string }
  | { kind: 'ended'; status: EndedTokenStatus };

/** Builds the seeded state from a fresh generator. */
export type SeedBuilder = (prng: Prng) => SeedState;

/**
 * The in-memory state behind {@link MockStore}: seeded deterministically and resettable.
 * Every mutation is synchronous, so a check and its write can never interleave with another
 * request (this is what makes the website limit hold under concurrency).
 */
export class InMemoryStore implements MockStore {
  readonly #seed: number;
  readonly #fixtureBuilder: SeedBuilder;
  #builder: SeedBuilder;
  #prng!: Prng;
  #state!: SeedState;
  readonly #tokens = new TokenRegistry();
  /** All keys in listing order, rebuilt after a change. */
  #ordered: MockApiKey[] | undefined;
  /** Keys per workspace in listing order, derived from {@link InMemoryStore.#ordered}. */
  #byWorkspace = new Map<string, MockApiKey[]>();
  #revision = 0;

  /** Seeds the state. */
  constructor(seed: number, options: { apiKeyCount: number; websiteLimit: number }) {
    this.#seed = seed;
    this.#fixtureBuilder = (prng) => ({ ...createFixtures(prng, options), websites: [] });
    this.#builder = this.#fixtureBuilder;
    this.reset();
  }

  /** Restores the seeded state (the built-in fixtures, or the last scenario seeded); issued and ended tokens are forgotten. */
  reset(): void {
    this.#prng = createPrng(this.#seed);
    this.#state = this.#builder(this.#prng);
    this.#tokens.clear();
    this.#changed();
  }

  /** Makes `builder` the seeded state (`undefined`: the built-in fixtures again), then resets to it. */
  seed(builder: SeedBuilder | undefined): void {
    this.#builder = builder ?? this.#fixtureBuilder;
    this.reset();
  }

  #changed(): void {
    this.#ordered = undefined;
    this.#byWorkspace = new Map();
    this.#revision++;
  }

  /** Bumped on every change of the API keys (add, delete, reset, seed): what derived data is keyed by. */
  get revision(): number {
    return this.#revision;
  }

  /** The seeded tokens and workspace ids. */
  get fixtures(): Pick<Fixtures, 'tokens' | 'workspaceIds'> {
    return { tokens: { ...this.#state.tokens }, workspaceIds: { ...this.#state.workspaceIds } };
  }

  /** See {@link MockStore.snapshot}. */
  snapshot(): MockStoreSnapshot {
    const { workspaces, users, apiKeys, websites } = this.#state;
    return structuredClone({
      workspaces,
      users,
      apiKeys: [...apiKeys].sort(compareKeys),
      websites,
    });
  }

  /** The seeded token of each API key that has one, by key id. */
  apiKeyTokensById(): Map<string, string> {
    const byId = new Map<string, string>();
    for (const [token, { keyId }] of this.#state.apiKeyTokens)
      if (keyId !== null) byId.set(keyId, token);
    return byId;
  }

  /** Finds a workspace by id. */
  workspace(id: string): MockWorkspace | undefined {
    return this.#state.workspaces.find((workspace) => workspace.id === id);
  }

  /** Resolves a bearer token; `undefined` for an unknown token or one whose key was deleted. */
  principal(token: string): Principal | undefined {
    const issued = this.#tokens.lookup(token);
    if (issued === 'expired' || issued === 'revoked') return { kind: 'ended', status: issued };
    const userId = issued?.kind === 'user' ? issued.userId : undefined;
    const user = this.#state.users.find((candidate) =>
      userId === undefined ? candidate.token === token : candidate.id === userId,
    );
    if (user) return { kind: 'user', user };
    const apiKey = issued?.kind === 'api_key' ? issued : this.#state.apiKeyTokens.get(token);
    if (!apiKey) return undefined;
    if (apiKey.keyId !== null && !this.#state.apiKeys.some((key) => key.id === apiKey.keyId))
      return undefined;
    return { kind: 'api_key', workspaceId: apiKey.workspaceId };
  }

  /** See {@link MockStore.issueUserToken}. */
  issueUserToken(userId: string, ttlSeconds?: number): { token: string; expiresAt: string | null } {
    if (!this.#state.users.some((user) => user.id === userId))
      throw new MockServerError('unknown_user', `No user with id ${JSON.stringify(userId)}.`);
    if (ttlSeconds !== undefined) requireValid('ttlSeconds', tokenTtlSeconds, ttlSeconds);
    return this.#tokens.issueUser(userId, ttlSeconds);
  }

  /** See {@link MockStore.issueApiKeyToken}. */
  issueApiKeyToken(apiKeyId: string): string {
    const key = this.#state.apiKeys.find((candidate) => candidate.id === apiKeyId);
    if (!key)
      throw new MockServerError(
        'unknown_api_key',
        `No API key with id ${JSON.stringify(apiKeyId)}.`,
      );
    return this.#tokens.issueApiKey(key.workspaceId, key.id, key.prefix);
  }

  /** See {@link MockStore.endToken}. */
  endToken(token: string, status: EndedTokenStatus): boolean {
    const principal = this.principal(token);
    if (!principal) return false;
    this.#tokens.end(token, status);
    return true;
  }

  /** The keys of a workspace, newest first (live objects and a shared array: do not mutate). */
  apiKeysOf(workspaceId: string): readonly MockApiKey[] {
    let keys = this.#byWorkspace.get(workspaceId);
    if (!keys) {
      this.#ordered ??= [...this.#state.apiKeys].sort(compareKeys);
      keys = this.#ordered.filter((key) => key.workspaceId === workspaceId);
      this.#byWorkspace.set(workspaceId, keys);
    }
    return keys;
  }

  /** See {@link MockStore.addApiKey}. */
  addApiKey(workspaceId: string, input: AddApiKeyInput = {}): MockApiKey {
    if (!this.workspace(workspaceId)) {
      throw new MockServerError(
        'unknown_workspace',
        `No workspace with id ${JSON.stringify(workspaceId)}.`,
      );
    }
    const creator =
      this.#state.users.find((user) => user.roles[workspaceId] === 'admin') ??
      this.#state.users[0]!;
    const createdAt = input.createdAt === undefined ? Date.now() : Date.parse(input.createdAt);
    if (Number.isNaN(createdAt)) {
      throwIfIssues([issue('createdAt', 'invalid', 'must be an ISO 8601 date-time')]);
    }
    const generated = makeApiKey(this.#prng, workspaceId, creator, createdAt);
    const key: MockApiKey = {
      ...generated,
      ...input,
      id: generated.id,
      workspaceId,
      createdByUser: generated.createdByUser,
      createdAt: new Date(createdAt).toISOString(),
    };
    if (input.updatedAt === undefined) key.updatedAt = key.createdAt;
    this.#state.apiKeys.push(key);
    this.#changed();
    return structuredClone(key);
  }

  /** See {@link MockStore.deleteApiKey}. */
  deleteApiKey(id: string): boolean {
    const index = this.#state.apiKeys.findIndex((key) => key.id === id);
    if (index === -1) return false;
    this.#state.apiKeys.splice(index, 1);
    this.#changed();
    return true;
  }

  /** Creates a website unless the plan's limit is reached; check and insert are one step. */
  insertWebsite(
    workspace: MockWorkspace,
    build: (id: string, endpointId: string) => MockWebsite,
  ): MockWebsite | undefined {
    const count = this.#state.websites.filter((site) => site.workspaceId === workspace.id).length;
    if (count >= workspace.plan.websiteLimit) return undefined;
    const website = build(`web_${this.#prng.hex(20)}`, this.#prng.hex(24));
    this.#state.websites.push(website);
    return structuredClone(website);
  }

  /** The website provisioned with this report endpoint id (a live object: do not mutate). */
  websiteByEndpoint(endpointId: string): MockWebsite | undefined {
    return this.#state.websites.find((site) => site.endpointUrl.endsWith(`/reports/${endpointId}`));
  }

  /** A website by id (a live object: do not mutate). */
  website(id: string): MockWebsite | undefined {
    return this.#state.websites.find((site) => site.id === id);
  }

  /** See {@link MockStore.setWebsiteLimit}. */
  setWebsiteLimit(workspaceId: string, limit: number): void {
    const workspace = this.workspace(workspaceId);
    if (!workspace)
      throw new MockServerError(
        'unknown_workspace',
        `No workspace with id ${JSON.stringify(workspaceId)}.`,
      );
    workspace.plan.websiteLimit = requireValid('limit', websiteLimit, limit);
  }
}
