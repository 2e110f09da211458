import { describe, expect, it } from 'vitest';
import type { SuiteContext } from './context';

/** The provisioned report endpoint of a website. */
export function reportsTests(s: SuiteContext): void {
  const { create, expectProblem } = s;
  describe('POST {endpointUrl}', () => {
    it('accepts reports on the provisioned endpointUrl with 204', async () => {
      const site = await (await create({ name: 'R', url: 'https://r.example' })).json();
      const report = JSON.stringify([
        { type: 'csp-violation', body: { effectiveDirective: 'script-src' } },
      ]);
      const post = (url: string, type: string, body = report) =>
        fetch(url, { method: 'POST', headers: { 'content-type': type }, body });
      expect((await post(site.endpointUrl, 'application/reports+json')).status).toBe(204);
      expect(
        (
          await post(
            site.endpointUrl,
            'application/csp-report',
            '{"csp-report":{"effective-directive":"img-src","blocked-uri":"https://a.example/i.png"}}',
          )
        ).status,
      ).toBe(204);
      await expectProblem(
        await post(site.endpointUrl, 'text/plain'),
        415,
        'unsupported_media_type',
      );
      await expectProblem(
        await post(site.endpointUrl, 'application/reports+json', '[{'),
        400,
        'malformed_json',
      );
      await expectProblem(
        await post(`${s.harness.baseUrl}/reports/nope`, 'application/reports+json'),
        404,
        'endpoint_not_found',
      );
    });
  });
}
