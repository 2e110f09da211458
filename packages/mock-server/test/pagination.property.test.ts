import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';
import { createMockService, type MockApiKey } from '../src/index';

type Page = {
  data: MockApiKey[];
  pagination: { nextCursor: string | null; hasMore: boolean; total: number };
};

/** Between two page requests: add keys (now, or dated like an existing key to force ties), delete keys. */
const mutation = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    name: fc.constantFrom('prod ci', 'Staging', 'PRODUCTION deploy', 'misc'),
    datedLike: fc.option(fc.nat(), { nil: null }),
  }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
);

describe('cursor pagination under concurrent changes', () => {
  it(
    'returns every key present from start to end exactly once, and no key twice',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 40 }),
          fc.integer({ min: 1, max: 12 }),
          fc.constantFrom(null, 'prod', 'STAG'),
          fc.array(fc.array(mutation, { maxLength: 4 }), { maxLength: 15 }),
          async (apiKeyCount, limit, q, steps) => {
            const service = createMockService({ apiKeyCount, seed: apiKeyCount * 31 + limit });
            const { store } = service;
            const workspace = service.workspaceIds.main;
            const matches = (key: MockApiKey) =>
              q === null || key.name.toLowerCase().includes(q.toLowerCase());
            const atStart = new Set(
              store
                .snapshot()
                .apiKeys.filter(matches)
                .map((key) => key.id),
            );
            const deleted = new Set<string>();
            const seen: string[] = [];
            let cursor: string | null = null;
            let step = 0;
            do {
              expect(step, 'pagination must terminate').toBeLessThan(1_000);
              const params = new URLSearchParams({ limit: String(limit) });
              if (q !== null) params.set('q', q);
              if (cursor !== null) params.set('cursor', cursor);
              const response = await service.fetch(
                new Request(`http://localhost/v1/workspaces/${workspace}/api-keys?${params}`, {
                  headers: { authorization: `Bearer ${service.tokens.admin}` },
                }),
              );
              expect(response.status).toBe(200);
              const page = (await response.json()) as Page;
              expect(page.data.length).toBeLessThanOrEqual(limit);
              expect(page.pagination.total).toBe(store.snapshot().apiKeys.filter(matches).length);
              seen.push(...page.data.map((key) => key.id));
              cursor = page.pagination.nextCursor;
              for (const change of steps[step++] ?? []) {
                const keys = store.snapshot().apiKeys;
                if (change.kind === 'add') {
                  const like =
                    change.datedLike === null
                      ? undefined
                      : keys[change.datedLike % Math.max(keys.length, 1)];
                  store.addApiKey(workspace, {
                    name: change.name,
                    ...(like ? { createdAt: like.createdAt } : {}),
                  });
                } else if (keys.length > 0) {
                  const victim = keys[change.pick % keys.length]!;
                  store.deleteApiKey(victim.id);
                  deleted.add(victim.id);
                }
              }
            } while (cursor !== null);
            expect(new Set(seen).size).toBe(seen.length);
            for (const id of atStart) {
              if (!deleted.has(id)) expect(seen).toContain(id);
            }
          },
        ),
        { numRuns: 60 },
      );
    },
    budget(30_000),
  );
});
