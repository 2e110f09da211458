/**
 * Testing your code against the mock service over real HTTP: one server for the file,
 * started in beforeAll, reset between tests, closed in afterAll.
 */
import { type CspwatchClient, createCspwatchClient } from '@cspwatch/client';
import { type MockServer, startMockServer } from '@cspwatch/mock-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findUnusedApiKeys } from '../src/key-audit';
import { onboardWebsite, PlanLimitError } from '../src/onboard-website';

const DAY_MS = 86_400_000;

let server: MockServer;
let client: CspwatchClient;

beforeAll(async () => {
  server = await startMockServer({ seed: 42, apiKeyCount: 150 });
  client = createCspwatchClient({ baseUrl: server.url, token: server.tokens.admin });
});
afterEach(() => server.reset());
afterAll(() => server.close());

describe('findUnusedApiKeys', () => {
  it('reports never-used and long-unused keys across every page, and skips recent ones', async () => {
    const now = Date.now();
    const main = server.workspaceIds.main;
    const fresh = server.service.store.addApiKey(main, {
      name: 'used yesterday',
      lastUsedAt: new Date(now - DAY_MS).toISOString(),
    });
    const never = server.service.store.addApiKey(main, { name: 'never used', lastUsedAt: null });

    const unused = await findUnusedApiKeys(client, main, { unusedForDays: 30, now });

    const ids = unused.map((key) => key.id);
    expect(ids).toContain(never.id);
    expect(ids).not.toContain(fresh.id);
    // Same answer as checking every key the store holds (151 keys: two pages of 100).
    const expected = server.service.store
      .snapshot()
      .apiKeys.filter(
        (key) =>
          key.workspaceId === main &&
          (!key.lastUsedAt || Date.parse(key.lastUsedAt) < now - 30 * DAY_MS),
      );
    expect(ids.sort()).toEqual(expected.map((key) => key.id).sort());
  });

  it('still completes when the API rate-limits every other request (the client retries)', async () => {
    const flaky = await startMockServer({
      seed: 42,
      faults: { rateLimitEvery: 2, retryAfterSeconds: 0 },
    });
    try {
      const flakyClient = createCspwatchClient({ baseUrl: flaky.url, token: flaky.tokens.admin });
      const unused = await findUnusedApiKeys(flakyClient, flaky.workspaceIds.main, {
        unusedForDays: 0,
      });
      expect(unused).toHaveLength(60);
    } finally {
      await flaky.close();
    }
  });

  it('fails with a typed error for a workspace whose plan lacks API keys', async () => {
    const other = createCspwatchClient({
      baseUrl: server.url,
      token: server.tokens.noApiKeysFeature,
    });
    await expect(
      findUnusedApiKeys(other, server.workspaceIds.noApiKeysFeature, { unusedForDays: 30 }),
    ).rejects.toMatchObject({ code: 'feature_not_in_plan' });
  });
});

describe('onboardWebsite', () => {
  it('returns the Reporting-Endpoints header pointing at the new endpoint', async () => {
    const site = await onboardWebsite(client, server.workspaceIds.main, {
      name: 'Shop',
      url: 'https://shop.example.com',
    });
    expect(site.headers['Reporting-Endpoints']).toMatch(/^csp-endpoint="https?:\/\/.+"$/);
    expect(site.cspDirective).toBe('report-to csp-endpoint');
  });

  it('turns the plan limit into a PlanLimitError', async () => {
    server.service.store.setWebsiteLimit(server.workspaceIds.main, 0);
    await expect(
      onboardWebsite(client, server.workspaceIds.main, {
        name: 'Blog',
        url: 'https://blog.example.com',
      }),
    ).rejects.toBeInstanceOf(PlanLimitError);
  });
});
