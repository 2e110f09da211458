import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMockService } from '../src/index';
import type { InMemoryStore } from '../src/store/store';

const baseUrl = 'http://localhost';

async function siteWithRule(name = 'Shop') {
  const service = createMockService({ baseUrl, apiKeyCount: 1 });
  const response = await service.fetch(
    new Request(`${baseUrl}/v1/workspaces/${service.workspaceIds.main}/websites`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${service.tokens.admin}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name, url: 'https://shop.example.com' }),
    }),
  );
  const site = (await response.json()) as { id: string; endpointUrl: string };
  const rule = await service.fetch(
    new Request(`${baseUrl}/_mock/alert-rules`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'All', websiteId: site.id, channelIds: [] }),
    }),
  );
  expect(rule.status).toBe(201);
  const post = (body: string, type: string) =>
    service.fetch(
      new Request(site.endpointUrl, { method: 'POST', headers: { 'content-type': type }, body }),
    );
  return { service, post, site };
}

const directive = fc.constantFrom('script-src-elem', 'img-src', 'connect-src', 'frame-src');
const blocked = fc.constantFrom(
  'https://cdn.a.example/x.js',
  'https://cdn.a.example/y.js',
  'https://b.example:8443/z',
  'inline',
  'eval',
  'data:image/png;base64,AA',
);
const origin = (url: string) => (['inline', 'eval'].includes(url) ? url : new URL(url).origin);

describe('report endpoint under arbitrary bodies', () => {
  it('answers 204 or 400 with fields to fix, never 5xx, whatever the JSON', async () => {
    const { post } = await siteWithRule();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.json(), fc.string({ maxLength: 100 })),
        fc.constantFrom('application/reports+json', 'application/csp-report', 'application/json'),
        async (body, type) => {
          const response = await post(body, type);
          expect([204, 400]).toContain(response.status);
          if (response.status === 400) {
            const problem = await response.json();
            expect(['validation_failed', 'malformed_json']).toContain(problem.code);
            if (problem.code === 'validation_failed')
              for (const error of problem.errors) expect(error.path.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('each new directive + origin pair is reported in exactly one alert, with its count in that batch', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.tuple(directive, blocked), { minLength: 1, maxLength: 6 }), {
          minLength: 1,
          maxLength: 5,
        }),
        async (batches) => {
          const { service, post } = await siteWithRule();
          const seen = new Set<string>();
          for (const batch of batches) {
            const reports = batch.map(([effectiveDirective, blockedURL]) => ({
              type: 'csp-violation',
              age: 0,
              url: 'https://shop.example.com/',
              body: { effectiveDirective, blockedURL },
            }));
            const before = service.alerts.length;
            expect((await post(JSON.stringify(reports), 'application/reports+json')).status).toBe(
              204,
            );
            const expected = new Map<string, number>();
            for (const [effectiveDirective, url] of batch) {
              if (url.startsWith('data:')) continue;
              const key = `${effectiveDirective}\n${origin(url)}`;
              if (!seen.has(key)) expected.set(key, (expected.get(key) ?? 0) + 1);
            }
            for (const key of expected.keys()) seen.add(key);
            if (expected.size === 0) {
              expect(service.alerts.length).toBe(before);
              continue;
            }
            expect(service.alerts.length).toBe(before + 1);
            const alert = service.alerts[0]!.alert;
            expect(alert.findingsCount).toBe(expected.size);
            expect(new Map(alert.findings.map((finding) => [finding.key, finding.count]))).toEqual(
              expected,
            );
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a website whose name is blank still gets its alert (named by its id)', async () => {
    const { service, post, site } = await siteWithRule();
    // The API refuses blank names (the contract's rule); a seeded scenario can still hold one.
    (service.store as InMemoryStore).website(site.id)!.name = '   ';
    const report = [
      {
        type: 'csp-violation',
        age: 0,
        url: 'https://x/',
        body: { effectiveDirective: 'img-src', blockedURL: 'https://i.example/a.png' },
      },
    ];
    expect((await post(JSON.stringify(report), 'application/reports+json')).status).toBe(204);
    const alert = service.alerts[0]!.alert;
    expect(alert.website.name).toBe(alert.website.id);
  });
});
