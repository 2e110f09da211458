import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SuiteContext } from './context';

const committed = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../client/openapi.json'), 'utf8'),
);

/** The contract: the served document, and the fault answers of the create endpoint. */
export function contractTests(s: SuiteContext): void {
  const { create, expectProblem } = s;
  describe('the OpenAPI contract', () => {
    it('serves the committed OpenAPI document at GET /openapi.json', async () => {
      const response = await fetch(`${s.harness.baseUrl}/openapi.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual(committed);
    });

    it('answers create with 429 and a 5xx as documented', async () => {
      const body = { name: 'Shop', url: 'https://shop.example.com' };
      s.harness.service.setFaults({ rateLimitEvery: 1, retryAfterSeconds: 2 });
      await expectProblem(await create(body), 429, 'rate_limited');
      s.harness.service.setFaults({ serverErrorRate: 1, serverErrorStatus: 500 });
      await expectProblem(await create(body), 500, 'server_error');
      expect(s.harness.service.store.snapshot().websites).toEqual([]);
    });
  });
}
