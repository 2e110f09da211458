/**
 * Prism, a validator we did not write, between the clients and the real mock server
 * (`prism proxy --errors`): every request of `@cspwatch/client` and of the generated
 * openapi-fetch clients, and every answer of the mock, must match the shipped documents.
 * (`prism mock` of the service document answering `@cspwatch/client` is in
 * `packages/client/test/prism.test.ts`.)
 */
import { join } from 'node:path';
import { createCspwatchClient } from '@cspwatch/client';
import { type MockServer, startMockServer } from '@cspwatch/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrismProcess, startPrism } from '../../../test/helpers/processes';
import { createMockControlClient, createServiceClient } from '../src/typed-clients';

const root = join(import.meta.dirname, '../../..');
const serviceDocument = join(root, 'packages/client/openapi.json');
const mockDocument = join(root, 'packages/mock-server/openapi.json');

/**
 * Prism's log lines that report a request or response that breaks the document: with
 * `--errors` each ends the exchange as an `error` line (`UNPROCESSABLE_ENTITY` for a request,
 * `VIOLATIONS` for a response); without it they are `warning` lines.
 */
const violations = (prism: PrismProcess) =>
  prism
    .output()
    .split('\n')
    // The level only (`✖  error`, `⚠  warning`): the path in an `info` line may hold any word.
    .filter((line) => /[✖⚠]\s+(error|warning)\b/.test(line));

describe('prism proxy --errors in front of the mock server', () => {
  let server: MockServer;
  let service: PrismProcess;
  let control: PrismProcess;
  beforeAll(async () => {
    server = await startMockServer({ host: '127.0.0.1', port: 0, apiKeyCount: 5 });
    [service, control] = await Promise.all([
      startPrism(['proxy', '--errors', serviceDocument, server.url], { from: import.meta.url }),
      startPrism(['proxy', '--errors', mockDocument, server.url], { from: import.meta.url }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([service?.close(), control?.close()]);
    await server?.close();
  });

  it('passes every request and answer of @cspwatch/client', async () => {
    const client = createCspwatchClient({
      baseUrl: service.baseUrl,
      token: server.tokens.admin,
      maxRetries: 0,
    });
    const keys = await client.apiKeys.list(server.workspaceIds.main, { limit: 2 }).toArray();
    expect(keys).toHaveLength(5);
    const website = await client.websites.create(server.workspaceIds.main, {
      name: 'Proxied shop',
      url: 'https://shop.example.com',
      settings: { allowedOrigins: ['https://shop.example.com'], dropReferrer: true },
    });
    expect(website.name).toBe('Proxied shop');
    expect(violations(service)).toEqual([]);
  });

  it('passes every request and answer of the generated openapi-fetch client', async () => {
    const api = createServiceClient(service.baseUrl, server.tokens.admin);
    const path = { workspaceId: server.workspaceIds.main };
    const first = await api.GET('/v1/workspaces/{workspaceId}/api-keys', {
      params: { path, query: { limit: 3 } },
    });
    expect(first.response.status).toBe(200);
    const cursor = first.data!.pagination.nextCursor!;
    const second = await api.GET('/v1/workspaces/{workspaceId}/api-keys', {
      params: { path, query: { limit: 3, cursor } },
    });
    expect(second.data!.data).toHaveLength(2);
    const created = await api.POST('/v1/workspaces/{workspaceId}/websites', {
      params: { path },
      body: { name: 'Typed shop', url: 'https://typed.example.com' },
    });
    expect(created.response.status).toBe(201);
    const missing = await api.GET('/v1/workspaces/{workspaceId}/api-keys', {
      params: { path: { workspaceId: 'ws_missing' } },
    });
    expect(missing.error).toMatchObject({ status: 404, code: 'workspace_not_found' });
    expect(violations(service)).toEqual([]);
  });

  it("passes the generated client's control API calls and the mock's answers", async () => {
    const mock = createMockControlClient(control.baseUrl);
    expect((await mock.POST('/_mock/reset')).response.status).toBe(204);
    const state = await mock.GET('/_mock/state');
    expect(state.data!.workspaces.length).toBeGreaterThan(0);
    const faults = await mock.PUT('/_mock/faults', { body: { latencyMs: 0 } });
    expect(faults.data).toMatchObject({ latencyMs: 0, serverErrorStatus: 503 });
    const channel = await mock.POST('/_mock/inbox/channels', {
      body: { secret: 'whsec-proxied-1234', response: { status: 500 } },
    });
    expect(channel.response.status).toBe(201);
    const sent = await mock.POST('/_mock/trigger', {
      body: { to: channel.data!.url, secret: 'whsec-proxied-1234', sample: { rule: 'Proxied' } },
    });
    expect(sent.data!.result).toMatchObject({ ok: false, status: 500, cause: 'http_status' });
    const deliveries = await mock.GET('/_mock/inbox/channels/{channelId}/deliveries', {
      params: { path: { channelId: channel.data!.id } },
    });
    expect(deliveries.data!.data[0]).toMatchObject({ verified: true, status: 500 });
    const alerts = await mock.GET('/_mock/alerts', { params: { query: { wait: '1' } } });
    expect(Array.isArray(alerts.data!.data)).toBe(true);
    expect(violations(control)).toEqual([]);
  });

  it('reports a request that breaks the document (the check can fail)', async () => {
    const response = await fetch(
      `${service.baseUrl}/v1/workspaces/${server.workspaceIds.main}/api-keys?limit=500`,
      { headers: { authorization: `Bearer ${server.tokens.admin}` } },
    );
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      validation: [{ location: ['query', 'limit'], severity: 'Error' }],
    });
    await service.waitForOutput(/UNPROCESSABLE_ENTITY/);
    expect(violations(service).join('\n')).toMatch(/error .*UNPROCESSABLE_ENTITY/);
  });
});

describe("prism mock of the mock's own document", () => {
  let prism: PrismProcess;
  beforeAll(async () => {
    prism = await startPrism(['mock', '-d', mockDocument], { from: import.meta.url });
  }, 120_000);
  afterAll(() => prism?.close());

  it('answers the generated control client with conforming bodies', async () => {
    const mock = createMockControlClient(prism.baseUrl);
    const state = await mock.GET('/_mock/state');
    expect(state.response.status).toBe(200);
    expect(Array.isArray(state.data!.workspaces)).toBe(true);
    const channel = await mock.POST('/_mock/inbox/channels', { body: { secret: 'whsec-1234' } });
    expect(channel.response.status).toBe(201);
    expect(channel.data!.url).toBeTypeOf('string');
  });
});
