/**
 * Testing your code in-process with msw: the same mock service answers `fetch` calls to a
 * made-up origin, with no port and no server; per-test handlers can still override it.
 */
import { CspwatchServerError, createCspwatchClient } from '@cspwatch/client';
import { createMockService } from '@cspwatch/mock-server';
import { createMockHandlers } from '@cspwatch/mock-server/msw';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findUnusedApiKeys } from '../src/key-audit';
import { onboardWebsite } from '../src/onboard-website';

const baseUrl = 'https://api.cspwatch.test';
const service = createMockService({ baseUrl, seed: 7, apiKeyCount: 5 });
const server = setupServer(...createMockHandlers({ baseUrl, service }));
const client = createCspwatchClient({ baseUrl, token: service.tokens.admin, maxRetries: 0 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  service.reset();
});
afterAll(() => server.close());

describe('with msw', () => {
  it('finds unused keys through the msw handlers', async () => {
    const main = service.workspaceIds.main;
    const never = service.store.addApiKey(main, { name: 'never used', lastUsedAt: null });
    const now = Date.now();
    const unused = await findUnusedApiKeys(client, main, { unusedForDays: 90, now });
    const ids = unused.map((key) => key.id);
    expect(ids).toContain(never.id);
    const cutoff = now - 90 * 86_400_000;
    const expected = service.store
      .snapshot()
      .apiKeys.filter(
        (key) =>
          key.workspaceId === main && (!key.lastUsedAt || Date.parse(key.lastUsedAt) < cutoff),
      );
    expect(ids.sort()).toEqual(expected.map((key) => key.id).sort());
  });

  it('creates a website in the service state', async () => {
    const site = await onboardWebsite(client, service.workspaceIds.main, {
      name: 'Docs',
      url: 'https://docs.example.com',
    });
    expect(site.websiteId).toMatch(/\S/);
  });

  it('lets one test override the mock with its own handler', async () => {
    server.use(
      http.get(`${baseUrl}/v1/workspaces/:id/api-keys`, () =>
        HttpResponse.json(
          { type: 'about:blank', title: 'Unavailable', status: 503, code: 'server_error' },
          { status: 503, headers: { 'content-type': 'application/problem+json' } },
        ),
      ),
    );
    await expect(
      findUnusedApiKeys(client, service.workspaceIds.main, { unusedForDays: 1 }),
    ).rejects.toBeInstanceOf(CspwatchServerError);
  });
});
