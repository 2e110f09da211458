import { describe, expect, it } from 'vitest';
import { budget } from '../../../../test-budget';
import type { SuiteContext } from './context';

/** The plan's website limit: per workspace, changed at run time, and under concurrency. */
export function websiteLimitTests(s: SuiteContext): void {
  const { tokens, main, create, expectProblem } = s;
  describe('website limit', () => {
    it('follows a website limit changed at run time, per workspace', async () => {
      s.harness.service.store.setWebsiteLimit(main(), 1);
      expect((await create({ name: 'a', url: 'https://a.example' })).status).toBe(201);
      await expectProblem(
        await create({ name: 'b', url: 'https://b.example' }),
        403,
        'website_limit_reached',
      );
      const free = s.harness.service.workspaceIds.noApiKeysFeature;
      const statuses: number[] = [];
      for (let index = 0; index < 4; index++) {
        statuses.push(
          (
            await create(
              { name: `f${index}`, url: 'https://f.example' },
              tokens().noApiKeysFeature,
              free,
            )
          ).status,
        );
      }
      expect(statuses).toEqual([201, 201, 201, 403]);
      expect(() => s.harness.service.store.setWebsiteLimit(main(), -1)).toThrow(/limit/);
    });

    it(
      'enforces the plan website limit, also under 200 concurrent creates',
      async () => {
        const responses = await Promise.all(
          Array.from({ length: 200 }, (_, index) =>
            create({ name: `site ${index}`, url: `https://s${index}.example` }),
          ),
        );
        const statuses = responses.map((response) => response.status);
        expect(statuses.filter((status) => status === 201)).toHaveLength(10);
        expect(statuses.filter((status) => status === 403)).toHaveLength(190);
        const refused = responses.find((response) => response.status === 403)!;
        const problem = await expectProblem(refused, 403, 'website_limit_reached');
        expect(problem.detail).toContain('10 websites');
        await Promise.all(
          responses.filter((response) => !response.bodyUsed).map((response) => response.text()),
        );
        expect(s.harness.service.store.snapshot().websites).toHaveLength(10);
      },
      budget(30_000),
    );
  });
}
