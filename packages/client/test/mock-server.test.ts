import { type MockServer, startMockServer } from '@cspwatch/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CspwatchAuthenticationError,
  CspwatchBadRequestError,
  type CspwatchClientOptions,
  CspwatchNotFoundError,
  CspwatchPermissionError,
  createCspwatchClient,
} from '../src/index';

/*
 * Integration: the client against the real bundled mock service over loopback HTTP.
 */

let server: MockServer;
let faulty: MockServer;
beforeAll(async () => {
  server = await startMockServer({ seed: 7, apiKeyCount: 1000, websiteLimit: 3 });
  faulty = await startMockServer({
    seed: 8,
    apiKeyCount: 300,
    faults: { rateLimitEvery: 3, retryAfterSeconds: 0, serverErrorRate: 0.2 },
  });
});
afterAll(async () => {
  await server?.close();
  await faulty?.close();
});

const clientFor = (
  target: MockServer,
  token: string,
  options: Partial<CspwatchClientOptions> = {},
) => createCspwatchClient({ baseUrl: target.url, token, ...options });

describe('client against the mock server', () => {
  it('iterates all 1,000 seeded keys exactly once each', async () => {
    const client = clientFor(server, server.tokens.admin);
    const counts = new Map<string, number>();
    for await (const key of client.apiKeys.list(server.workspaceIds.main, { limit: 137 })) {
      counts.set(key.id, (counts.get(key.id) ?? 0) + 1);
    }
    expect(counts.size).toBe(1000);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    const seeded = server.service.store.snapshot().apiKeys.map((key) => key.id);
    expect(new Set(counts.keys())).toEqual(new Set(seeded));
  });

  it('filters with q and reports the matching total', async () => {
    const client = clientFor(server, server.tokens.admin);
    const q = 'ci pipeline';
    const expected = server.service.store
      .snapshot()
      .apiKeys.filter((key) => key.name.toLowerCase().includes(q))
      .map((key) => key.id);
    expect(expected.length).toBeGreaterThan(0);
    const list = client.apiKeys.list(server.workspaceIds.main, { q, limit: 20 });
    const first = await list.firstPage();
    expect(first.pagination.total).toBe(expected.length);
    const ids = (await list.toArray()).map((key) => key.id);
    expect(ids.sort()).toEqual([...expected].sort());
  });

  it('resumes from a stored cursor', async () => {
    const client = clientFor(server, server.tokens.admin);
    const first = await client.apiKeys.list(server.workspaceIds.main, { limit: 10 }).firstPage();
    const cursor = first.pagination.nextCursor!;
    const next = await client.apiKeys
      .list(server.workspaceIds.main, { limit: 10, cursor })
      .firstPage();
    expect(next.data[0]?.id).not.toBe(first.data[0]?.id);
    const tampered = client.apiKeys
      .list(server.workspaceIds.main, { cursor: `${cursor}x` })
      .firstPage();
    await expect(tampered).rejects.toMatchObject({ code: 'invalid_cursor' });
    await expect(tampered).rejects.toBeInstanceOf(CspwatchBadRequestError);
  });

  it('maps role, plan and API-key refusals to permission errors with their codes', async () => {
    const { main, noApiKeysFeature } = server.workspaceIds;
    const cases = [
      [server.tokens.member, main, 'forbidden_role'],
      [server.tokens.noApiKeysFeature, noApiKeysFeature, 'feature_not_in_plan'],
      [server.tokens.apiKey, main, 'api_key_not_allowed'],
    ] as const;
    for (const [token, workspaceId, code] of cases) {
      const error = await clientFor(server, token)
        .apiKeys.list(workspaceId)
        .firstPage()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CspwatchPermissionError);
      expect(error).toMatchObject({ status: 403, code });
      expect((error as CspwatchPermissionError).requestId).toBeTruthy();
      expect((error as Error).message).not.toContain(token);
    }
  });

  it('maps an unknown token and an unknown workspace', async () => {
    const bad = clientFor(server, 'not_a_real_token');
    await expect(bad.apiKeys.list(server.workspaceIds.main).firstPage()).rejects.toBeInstanceOf(
      CspwatchAuthenticationError,
    );
    const admin = clientFor(server, server.tokens.admin);
    await expect(admin.apiKeys.list('ws_does_not_exist').firstPage()).rejects.toBeInstanceOf(
      CspwatchNotFoundError,
    );
  });

  it('creates websites up to the plan limit, then refuses with website_limit_reached', async () => {
    server.reset();
    const client = clientFor(server, server.tokens.admin);
    const workspaceId = server.workspaceIds.main;
    const created = [];
    for (let index = 0; index < 3; index++) {
      created.push(
        await client.websites.create(workspaceId, {
          name: `Site ${index}`,
          url: `https://site${index}.example.com`,
        }),
      );
    }
    expect(
      created.every((site) => site.endpointUrl.length > 0 && site.workspaceId === workspaceId),
    ).toBe(true);
    const error = await client.websites
      .create(workspaceId, { name: 'One too many', url: 'https://more.example.com' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CspwatchPermissionError);
    expect(error).toMatchObject({ code: 'website_limit_reached' });
    expect(server.service.store.snapshot().websites).toHaveLength(3);
    const member = clientFor(server, server.tokens.member);
    await expect(
      member.websites.create(workspaceId, { name: 'x', url: 'https://x.example.com' }),
    ).rejects.toMatchObject({ code: 'forbidden_role' });
  });

  it('iterates every key through injected 429s and 5xx, retrying each page', async () => {
    const client = clientFor(faulty, faulty.tokens.admin, { maxRetries: 8, random: () => 0 });
    const ids = new Set<string>();
    let count = 0;
    for await (const key of client.apiKeys.list(faulty.workspaceIds.main, { limit: 25 })) {
      ids.add(key.id);
      count++;
    }
    expect(count).toBe(300);
    expect(ids.size).toBe(300);
  });
});
