import type { Prng } from './prng';
import type {
  MockApiKey,
  MockUser,
  MockUserSummary,
  MockWebsite,
  MockWorkspace,
} from './resources';

/** The bearer tokens the seeded fixtures authenticate with. */
export interface MockTokens {
  /** Admin of the main workspace. */
  admin: string;
  /** Member (not admin) of the main workspace. */
  member: string;
  /** Admin of a workspace whose plan lacks the `api_keys` feature. */
  noApiKeysFeature: string;
  /** A `cwk_` API key of the main workspace (refused on user-only endpoints). */
  apiKey: string;
}

/** The ids of the seeded workspaces. */
export interface MockWorkspaceIds {
  /** The main workspace: plan with `api_keys`, the configured website limit, the seeded keys. */
  main: string;
  /** A workspace whose plan lacks the `api_keys` feature. */
  noApiKeysFeature: string;
}

/** Everything the seed produces. */
export interface Fixtures {
  workspaces: MockWorkspace[];
  users: MockUser[];
  apiKeys: MockApiKey[];
  /** Secret of each API key token, mapped to its key id (or `null` for a token with no listed key). */
  apiKeyTokens: Map<string, { workspaceId: string; keyId: string | null }>;
  tokens: MockTokens;
  workspaceIds: MockWorkspaceIds;
}

/** The store's whole seeded state: the fixtures' shape, plus websites. */
export type SeedState = Fixtures & { websites: MockWebsite[] };

/** Seeded keys are dated up to this instant, so a fixed seed gives fixed dates. */
const REFERENCE_TIME = Date.UTC(2025, 5, 1);
const DAY = 86_400_000;
const ENVIRONMENTS = ['Production', 'Staging', 'Development', 'QA', 'Preview', 'Sandbox'];
const PURPOSES = [
  'CI pipeline',
  'deploy bot',
  'Terraform',
  'GitHub Actions',
  'Grafana export',
  'SIEM forwarder',
  'report exporter',
  'Slack bot',
  'nightly backup',
  'local testing',
  'Datadog sync',
  'Zapier',
];
const FIRST_NAMES = ['Ada', 'Grace', 'Linus', 'Margaret', 'Alan', 'Barbara', 'Dennis', 'Radia'];
const LAST_NAMES = ['Lovelace', 'Hopper', 'Torvalds', 'Hamilton', 'Turing', 'Liskov', 'Ritchie'];

/** Builds a user with a seeded name, id and token. */
function makeUser(prng: Prng, roles: MockUser['roles']): MockUser {
  const firstName = prng.pick(FIRST_NAMES);
  const lastName = prng.pick(LAST_NAMES);
  const id = `usr_${prng.hex(16)}`;
  return {
    id,
    email: `${firstName}.${lastName}@example.com`.toLowerCase(),
    firstName,
    lastName,
    picture: `https://avatars.example.com/${id}.png`,
    token: `mock_at_${prng.hex(40)}`,
    roles,
  };
}

/** Strips the token and roles from a user. */
export function summarizeUser(user: MockUser): MockUserSummary {
  const { id, email, firstName, lastName, picture } = user;
  return { id, email, firstName, lastName, picture };
}

/** Builds one realistic API key; `null` dates appear for never-used and non-expiring keys. */
export function makeApiKey(
  prng: Prng,
  workspaceId: string,
  creator: MockUser,
  createdAt: number,
): MockApiKey {
  const created = new Date(createdAt).toISOString();
  const updatedAt = Math.min(
    createdAt + prng.int(0, 30) * DAY,
    Math.max(createdAt, REFERENCE_TIME),
  );
  const usedAt = prng.next() < 0.25 ? null : createdAt + prng.int(0, 60 * 60 * 24 * 90) * 1000;
  const expiry = prng.next() < 0.4 ? null : createdAt + prng.pick([90, 180, 365]) * DAY;
  return {
    id: `key_${prng.hex(20)}`,
    workspaceId,
    name: `${prng.pick(ENVIRONMENTS)} ${prng.pick(PURPOSES)}`,
    prefix: `cwk_${prng.hex(6)}`,
    createdBy: creator.id,
    createdByUser: summarizeUser(creator),
    allowedIps: prng.next() < 0.7 ? [] : ['203.0.113.10', `198.51.100.0/${prng.pick([24, 28])}`],
    expiresAt: expiry === null ? null : new Date(expiry).toISOString(),
    lastUsedAt: usedAt === null ? null : new Date(usedAt).toISOString(),
    createdAt: created,
    updatedAt: new Date(updatedAt).toISOString(),
  };
}

/** Seeds workspaces, users, tokens and keys; the same inputs always give the same output. */
export function createFixtures(
  prng: Prng,
  options: { apiKeyCount: number; websiteLimit: number },
): Fixtures {
  const main: MockWorkspace = {
    id: `ws_${prng.hex(16)}`,
    name: 'Acme Corp',
    plan: {
      name: 'Business',
      features: ['api_keys', 'webhooks'],
      websiteLimit: options.websiteLimit,
      reportsPerMonth: 1_000_000,
    },
  };
  const free: MockWorkspace = {
    id: `ws_${prng.hex(16)}`,
    name: 'Side Project',
    plan: { name: 'Free', features: ['webhooks'], websiteLimit: 3, reportsPerMonth: 10_000 },
  };
  const admin = makeUser(prng, { [main.id]: 'admin' });
  const member = makeUser(prng, { [main.id]: 'member' });
  const freeAdmin = makeUser(prng, { [free.id]: 'admin' });
  const apiKeys: MockApiKey[] = [];
  for (let index = 0; index < options.apiKeyCount; index++) {
    const createdAt = REFERENCE_TIME - prng.int(1, 540 * 24 * 60) * 60_000;
    apiKeys.push(makeApiKey(prng, main.id, prng.next() < 0.8 ? admin : member, createdAt));
  }
  const apiKeyToken = `${apiKeys[0]?.prefix ?? `cwk_${prng.hex(6)}`}${prng.hex(34)}`;
  const apiKeyTokens = new Map([
    [apiKeyToken, { workspaceId: main.id, keyId: apiKeys[0]?.id ?? null }],
  ]);
  return {
    workspaces: [main, free],
    users: [admin, member, freeAdmin],
    apiKeys,
    apiKeyTokens,
    tokens: {
      admin: admin.token,
      member: member.token,
      noApiKeysFeature: freeAdmin.token,
      apiKey: apiKeyToken,
    },
    workspaceIds: { main: main.id, noApiKeysFeature: free.id },
  };
}
