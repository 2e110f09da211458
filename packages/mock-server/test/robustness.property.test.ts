import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';
import { createMockService } from '../src/index';

const service = createMockService({ apiKeyCount: 5 });
const { main, noApiKeysFeature } = service.workspaceIds;

const path = fc.oneof(
  fc.constantFrom(
    `/v1/workspaces/${main}/api-keys`,
    `/v1/workspaces/${main}/websites`,
    `/v1/workspaces/${noApiKeysFeature}/api-keys`,
    '/v1/workspaces/%ZZ/api-keys',
    '/v1/workspaces//websites',
    '/inbox/ch_x',
    '/reports/abc',
    '/',
    '/_mock/',
    '/_mock/state',
    '/_mock/scenario',
    '/_mock/tokens',
    '/_mock/tokens/expire',
    '/_mock/webhook-channels',
    '/_mock/webhook-channels/wh_x',
    '/_mock/alert-rules',
    '/_mock/inbox/channels',
    '/_mock/inbox/channels/ch_x/deliveries',
    '/_mock/inbox/channels/ch_x/response',
    '/_mock/inbox/deliveries',
    '/_mock/trigger',
    '/_mock/%ZZ',
  ),
  fc.webPath(),
);
const token = fc.constantFrom(
  ...Object.values(service.tokens).map((value) => `Bearer ${value}`),
  'Bearer',
  'bearer  x',
  '',
);
const query = fc.dictionary(
  fc.constantFrom('limit', 'q', 'cursor', 'x'),
  fc.string({ maxLength: 300 }),
  { maxKeys: 3 },
);
const body = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.json(),
  fc.constant('{"name":"a","url":"https://a.b"}'),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/problem+json; charset=utf-8',
  'text/plain',
  'application/reports+json',
  'application/csp-report',
  '',
);

describe('the service under arbitrary requests', () => {
  it(
    'always answers with a status below 500 and a problem+json body for every error',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
          path,
          query,
          token,
          body,
          contentType,
          async (method, pathname, params, authorization, payload, type) => {
            const url = new URL(`http://localhost${pathname}`);
            for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
            const headers: Record<string, string> = {};
            if (authorization) headers.authorization = authorization;
            if (type) headers['content-type'] = type;
            const response = await service.fetch(
              new Request(url, { method, headers, ...(method === 'GET' ? {} : { body: payload }) }),
            );
            expect(response.status).toBeGreaterThanOrEqual(200);
            expect(response.status).toBeLessThan(500);
            expect(response.headers.get('x-request-id')).toMatch(/^req_/);
            if (response.status >= 400) {
              expect(response.headers.get('content-type')).toBe('application/problem+json');
              const problem = await response.json();
              expect(problem.status).toBe(response.status);
              expect(JSON.stringify(problem)).not.toContain(service.tokens.admin);
            } else {
              await response.arrayBuffer();
            }
          },
        ),
        { numRuns: 300 },
      );
      service.reset();
    },
    budget(20_000),
  );
});
