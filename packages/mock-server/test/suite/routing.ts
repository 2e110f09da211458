import { describe, expect, it } from 'vitest';
import type { SuiteContext } from './context';

/** Unknown routes, wrong methods, request ids. */
export function routingTests(s: SuiteContext): void {
  const { main, keysUrl, sitesUrl, auth, list, create, expectProblem } = s;
  describe('routing', () => {
    it('answers 404 for unknown routes and 405 with Allow for wrong methods', async () => {
      await expectProblem(await fetch(`${s.harness.baseUrl}/v2/nothing`), 404, 'not_found');
      await expectProblem(await fetch(`${s.harness.baseUrl}/`), 404, 'not_found');
      await expectProblem(await fetch(`${keysUrl()}/`, { headers: auth() }), 404, 'not_found');
      await expectProblem(
        await fetch(`${s.harness.baseUrl}/v1/workspaces/${main()}/api-keys/extra`),
        404,
        'not_found',
      );
      const wrongList = await fetch(keysUrl(), { method: 'DELETE', headers: auth() });
      expect(wrongList.headers.get('allow')).toBe('GET');
      await expectProblem(wrongList, 405, 'method_not_allowed');
      const wrongCreate = await fetch(sitesUrl(), { headers: auth() });
      expect(wrongCreate.headers.get('allow')).toBe('POST');
      await expectProblem(wrongCreate, 405, 'method_not_allowed');
    });

    it('sends a distinct x-request-id on every response', async () => {
      const responses = [
        await list(),
        await fetch(keysUrl()),
        await fetch(`${s.harness.baseUrl}/nope`),
        await create({}),
      ];
      const ids = responses.map((response) => response.headers.get('x-request-id'));
      for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/);
      expect(new Set(ids).size).toBe(ids.length);
    });
  });
}
