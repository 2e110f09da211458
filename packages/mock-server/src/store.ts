import { MockServerError } from './errors';
import { createFixtures, type Fixtures, makeApiKey } from './fixtures';
import { checkInteger } from './options';
import { createPrng, type Prng } from './prng';
import type { MockApiKey, MockUser, MockWebsite, MockWorkspace } from './resources';
import type { AddApiKeyInput, MockStore, MockStoreSnapshot } from './store-types';

/** Who a bearer token belongs to. */
export type Principal = { kind: 'user'; user: MockUser } | { kind: 'api_key'; workspaceId: string };

/** Orders keys newest first, ties broken by id, descending: the listing's stable sort key. */
export function compareKeys(a: MockApiKey, b: MockApiKey): number {
  const byTime = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  return byTime !== 0 ? byTime : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** Whether a key comes after a keyset position in the newest-first order of {@link compareKeys}. */
export function isAfterPosition(
  key: MockApiKey,
  position: { createdAtMs: number; id: string },
): boolean {
  const time = Date.parse(key.createdAt);
  return time < position.createdAtMs || (time === position.createdAtMs && key.id < position.id);
}

/**
 * The in-memory state behind {@link MockStore}: seeded deterministically and resettable.
 * Every mutation is synchronous, so a check and its write can never interleave with another
 * request (this is what makes the website limit hold under concurrency).
 */
export class InMemoryStore implements MockStore {
  #seed: number;
  #options: { apiKeyCount: number; websiteLimit: number };
  #prng!: Prng;
  #state!: Fixtures & { websites: MockWebsite[] };
  /** All keys in listing order, rebuilt after a change. */
  #ordered: MockApiKey[] | undefined;

  /** Seeds the state. */
  constructor(seed: number, options: { apiKeyCount: number; websiteLimit: number }) {
    this.#seed = seed;
    this.#options = options;
    this.reset();
  }

  /** Restores the seeded state: same ids, tokens and keys as at start; websites removed. */
  reset(): void {
    this.#prng = createPrng(this.#seed);
    this.#state = { ...createFixtures(this.#prng, this.#options), websites: [] };
    this.#ordered = undefined;
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

  /** Finds a workspace by id. */
  workspace(id: string): MockWorkspace | undefined {
    return this.#state.workspaces.find((workspace) => workspace.id === id);
  }

  /** Resolves a bearer token; `undefined` for an unknown or revoked token. */
  principal(token: string): Principal | undefined {
    const user = this.#state.users.find((candidate) => candidate.token === token);
    if (user) return { kind: 'user', user };
    const apiKey = this.#state.apiKeyTokens.get(token);
    if (!apiKey) return undefined;
    if (apiKey.keyId !== null && !this.#state.apiKeys.some((key) => key.id === apiKey.keyId))
      return undefined;
    return { kind: 'api_key', workspaceId: apiKey.workspaceId };
  }

  /** The keys of a workspace, newest first (live objects: do not mutate). */
  apiKeysOf(workspaceId: string): MockApiKey[] {
    this.#ordered ??= [...this.#state.apiKeys].sort(compareKeys);
    return this.#ordered.filter((key) => key.workspaceId === workspaceId);
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
      throw new MockServerError('invalid_options', 'createdAt must be an ISO 8601 date-time.');
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
    this.#ordered = undefined;
    return structuredClone(key);
  }

  /** See {@link MockStore.deleteApiKey}. */
  deleteApiKey(id: string): boolean {
    const index = this.#state.apiKeys.findIndex((key) => key.id === id);
    if (index === -1) return false;
    this.#state.apiKeys.splice(index, 1);
    this.#ordered = undefined;
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

  /** Whether a website was provisioned with this report endpoint id. */
  hasReportEndpoint(endpointId: string): boolean {
    return this.#state.websites.some((site) => site.endpointUrl.endsWith(`/reports/${endpointId}`));
  }

  /** See {@link MockStore.setWebsiteLimit}. */
  setWebsiteLimit(workspaceId: string, limit: number): void {
    const workspace = this.workspace(workspaceId);
    if (!workspace)
      throw new MockServerError(
        'unknown_workspace',
        `No workspace with id ${JSON.stringify(workspaceId)}.`,
      );
    workspace.plan.websiteLimit = checkInteger('limit', limit, 0, 100_000);
  }
}
