/**
 * A client we did not write: `openapi-fetch` over the types `openapi-typescript` generated from
 * the shipped documents, against the real mock HTTP server.
 */
import { type MockServer, startMockServer } from '@cspwatch/mock-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockControlClient, createServiceClient } from '../src/typed-clients';

describe('openapi-fetch with generated types against the mock server', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ host: '127.0.0.1', port: 0, apiKeyCount: 7 });
  });
  afterAll(() => server.close());
  beforeEach(() => server.service.reset());

  const service = () => createServiceClient(server.url, server.tokens.admin);
  const workspaceId = () => server.workspaceIds.main;

  it('lists every API key by following nextCursor', async () => {
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const { data, error, response } = await service().GET(
        '/v1/workspaces/{workspaceId}/api-keys',
        {
          params: {
            path: { workspaceId: workspaceId() },
            query: { limit: 3, ...(cursor ? { cursor } : {}) },
          },
        },
      );
      expect(error, JSON.stringify(error)).toBeUndefined();
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
      pages++;
      ids.push(...data!.data.map((key) => key.id));
      expect(data!.pagination.total).toBe(7);
      if (!data!.pagination.hasMore) break;
      cursor = data!.pagination.nextCursor ?? undefined;
      expect(cursor).toBeTypeOf('string');
    }
    expect(pages).toBe(3);
    expect(new Set(ids).size).toBe(7);
  });

  it('creates a website and gets its report endpoint', async () => {
    const { data, error, response } = await service().POST(
      '/v1/workspaces/{workspaceId}/websites',
      {
        params: { path: { workspaceId: workspaceId() } },
        body: { name: 'Shop', url: 'https://shop.example.com' },
      },
    );
    expect(error, JSON.stringify(error)).toBeUndefined();
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ name: 'Shop', url: 'https://shop.example.com' });
    expect(data!.endpointUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/reports\//);
  });

  it('gets a typed validation problem for a bad body', async () => {
    const { data, error, response } = await service().POST(
      '/v1/workspaces/{workspaceId}/websites',
      {
        params: { path: { workspaceId: workspaceId() } },
        body: { name: '', url: 'ftp://shop.example.com' },
      },
    );
    expect(data).toBeUndefined();
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(error).toMatchObject({ status: 400, code: 'validation_failed' });
    const paths = (error as { errors?: { path: string }[] }).errors?.map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['name', 'url']));
  });

  it("drives the mock's control API: issue a token, create an inbox channel, trigger, read the delivery", async () => {
    const control = createMockControlClient(server.url);
    const state = await control.GET('/_mock/state');
    const admin = state.data!.users.find((user) => user.token === server.tokens.admin)!;
    const issued = await control.POST('/_mock/tokens', {
      body: { userId: admin.id, ttlSeconds: 60 },
    });
    expect(issued.response.status).toBe(201);
    expect(issued.data).toMatchObject({ kind: 'user', userId: admin.id });
    const listed = await createServiceClient(server.url, issued.data!.token).GET(
      '/v1/workspaces/{workspaceId}/api-keys',
      { params: { path: { workspaceId: workspaceId() } } },
    );
    expect(listed.response.status).toBe(200);

    const channel = await control.POST('/_mock/inbox/channels', {
      body: { secret: 'whsec-interop-1234' },
    });
    expect(channel.response.status).toBe(201);
    const sent = await control.POST('/_mock/trigger', {
      body: { to: channel.data!.url, secret: 'whsec-interop-1234' },
    });
    expect(sent.data?.result).toMatchObject({ ok: true, status: 200 });
    const deliveries = await control.GET('/_mock/inbox/channels/{channelId}/deliveries', {
      params: { path: { channelId: channel.data!.id } },
    });
    expect(deliveries.data!.data).toHaveLength(1);
    expect(deliveries.data!.data[0]).toMatchObject({ verified: true, status: 200 });

    const refused = await control.PUT('/_mock/faults', {
      body: { serverErrorStatus: 200 },
    });
    expect(refused.response.status).toBe(400);
    expect(refused.error).toMatchObject({ code: 'validation_failed' });
  });
});
