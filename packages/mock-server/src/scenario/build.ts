import { type Fixtures, makeApiKey, type SeedState, summarizeUser } from '../store/fixtures';
import type { Prng } from '../store/prng';
import type { MockApiKey, MockUser, MockWebsite, MockWorkspace } from '../store/resources';
import { CREATOR_WEBSITE_ROLE, DEFAULT_WEBSITE_SETTINGS } from '../store/website-defaults';
import type { ParsedScenario } from './schema';

/** The fixture tokens and ids have no meaning in a seeded scenario: they are left empty. */
const NO_FIXTURES = {
  tokens: { admin: '', member: '', noApiKeysFeature: '', apiKey: '' },
  workspaceIds: { main: '', noApiKeysFeature: '' },
};

/**
 * Builds the store state of a validated scenario. Missing ids, tokens and key details come
 * from the seeded generator, so the same scenario gives the same state after every reset.
 */
export function buildScenarioState(
  scenario: ParsedScenario,
  prng: Prng,
  baseUrl: string,
): SeedState {
  const workspaces: MockWorkspace[] = scenario.workspaces.map((workspace) => ({
    id: workspace.id,
    name: workspace.name,
    plan: { ...workspace.plan, features: [...workspace.plan.features] },
  }));
  const users: MockUser[] = scenario.users.map((user) => ({
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    picture: user.picture ?? `https://avatars.example.com/${user.id}.png`,
    token: user.token ?? `mock_at_${prng.hex(40)}`,
    roles: { ...user.roles },
  }));
  const byId = new Map(users.map((user) => [user.id, user]));
  const apiKeyTokens: Fixtures['apiKeyTokens'] = new Map();
  const apiKeys: MockApiKey[] = scenario.apiKeys.map((input) => {
    const creator = byId.get(input.createdBy)!;
    const createdAt = input.createdAt === undefined ? Date.now() : Date.parse(input.createdAt);
    const generated = makeApiKey(prng, input.workspaceId, creator, createdAt);
    const key: MockApiKey = {
      ...generated,
      id: input.id ?? generated.id,
      name: input.name,
      createdByUser: summarizeUser(creator),
      allowedIps: input.allowedIps,
      expiresAt: input.expiresAt === null ? null : new Date(input.expiresAt).toISOString(),
      lastUsedAt: input.lastUsedAt === null ? null : new Date(input.lastUsedAt).toISOString(),
      updatedAt: generated.createdAt,
    };
    apiKeyTokens.set(`${key.prefix}${prng.hex(34)}`, {
      workspaceId: key.workspaceId,
      keyId: key.id,
    });
    return key;
  });
  const plans = new Map(workspaces.map((workspace) => [workspace.id, workspace.plan]));
  const now = new Date().toISOString();
  const websites: MockWebsite[] = scenario.websites.map((site) => ({
    id: site.id,
    workspaceId: site.workspaceId,
    name: site.name,
    url: site.url,
    endpointUrl: `${baseUrl}/reports/${site.endpointId ?? prng.hex(24)}`,
    endpointEnabled: true,
    usageLimit: plans.get(site.workspaceId)?.reportsPerMonth ?? 0,
    settings: site.settings
      ? { ...site.settings, allowedOrigins: [...site.settings.allowedOrigins] }
      : { ...DEFAULT_WEBSITE_SETTINGS, allowedOrigins: [] },
    role: CREATOR_WEBSITE_ROLE,
    createdAt: now,
    updatedAt: now,
  }));
  return { workspaces, users, apiKeys, apiKeyTokens, websites, ...structuredClone(NO_FIXTURES) };
}
