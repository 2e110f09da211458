import { describe, expect, it } from 'vitest';
import type { SuiteContext } from './context';

/** Creating websites: fields, validation, body errors, access rules (limit: website-limit.ts). */
export function websitesTests(s: SuiteContext): void {
  const { tokens, main, sitesUrl, auth, create, expectProblem } = s;
  describe('POST /v1/workspaces/{workspaceId}/websites', () => {
    it('creates a website: 201 with every field of section 2.2 and default settings', async () => {
      const response = await create({ name: 'Shop', url: 'https://shop.example.com' });
      expect(response.status).toBe(201);
      const site = await response.json();
      expect(site).toEqual({
        id: expect.stringMatching(/^web_/),
        workspaceId: main(),
        name: 'Shop',
        url: 'https://shop.example.com',
        endpointUrl: expect.stringMatching(/^https?:\/\/.+\/reports\/[0-9a-f]{24}$/),
        endpointEnabled: true,
        usageLimit: 1_000_000,
        settings: {
          allowedOrigins: [],
          dropQueryAndFragments: false,
          dropReferrer: false,
          dropReportsFromExtensions: true,
        },
        role: 'manager',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(new URL(site.endpointUrl).origin).toBe(s.harness.baseUrl);
      expect(Date.parse(site.createdAt)).not.toBeNaN();
      expect(s.harness.service.store.snapshot().websites).toEqual([site]);
    });

    it('keeps given settings', async () => {
      const settings = {
        allowedOrigins: ['https://a.example'],
        dropQueryAndFragments: true,
        dropReferrer: true,
        dropReportsFromExtensions: false,
      };
      const site = await (await create({ name: 'A', url: 'https://a.example/', settings })).json();
      expect(site.settings).toEqual(settings);
    });

    it('lists every invalid field', async () => {
      const cases: [unknown, string[]][] = [
        [{}, ['name', 'url']],
        [{ name: '', url: '/relative' }, ['name', 'url']],
        [{ name: 'x'.repeat(256), url: `https://a.example/${'a'.repeat(2040)}` }, ['name', 'url']],
        [{ name: 5, url: 'not a uri' }, ['name', 'url']],
        [{ name: 'ok', url: 'https://ok.example', extra: 1 }, ['extra']],
        [
          {
            name: 'ok',
            url: 'https://ok.example',
            settings: {
              allowedOrigins: ['https://a.example/path', 7],
              dropReferrer: 'yes',
              other: true,
            },
          },
          [
            'settings.allowedOrigins.0',
            'settings.allowedOrigins.1',
            'settings.dropReferrer',
            'settings.other',
          ],
        ],
        [{ name: 'ok', url: 'https://ok.example', settings: [] }, ['settings']],
        [[], ['(body)']],
        [null, ['(body)']],
        [{ name: 'js', url: 'javascript:alert(1)' }, ['url']],
        [{ name: 'mail', url: 'mailto:a@example.com' }, ['url']],
        [{ name: 'ftp', url: 'ftp://files.example.com/' }, ['url']],
      ];
      for (const [body, paths] of cases) {
        const problem = await expectProblem(await create(body), 400, 'validation_failed');
        expect(problem.errors?.map((error) => error.path)).toEqual(paths);
        if (paths[0] === '(body)') {
          expect(problem.detail).toMatch(/JSON object such as \{"name"/);
          expect(problem.detail).not.toMatch(/fix \./);
        }
        if (paths[0] === 'url') expect(problem.errors?.[0]?.message).toMatch(/http: or https:/);
      }
      expect(s.harness.service.store.snapshot().websites).toEqual([]);
    });

    it('accepts the boundaries: name of 255 code points, url of 2048 characters', async () => {
      const url = `https://a.example/${'a'.repeat(2048 - 'https://a.example/'.length)}`;
      expect((await create({ name: '😀'.repeat(255), url })).status).toBe(201);
    });

    it('answers 400 malformed_json, 415 for other content types, 413 over 1 MB', async () => {
      await expectProblem(await create('{"name": "x",'), 400, 'malformed_json');
      await expectProblem(await create('\u00ff'), 400, 'malformed_json');
      for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
        const response = await fetch(sitesUrl(), {
          method: 'POST',
          headers: { ...auth(), 'content-type': type },
          body: '{}',
        });
        await expectProblem(response, 415, 'unsupported_media_type');
      }
      const noType = await fetch(sitesUrl(), {
        method: 'POST',
        headers: auth(),
        body: new Blob(['{}']),
      });
      await expectProblem(noType, 415, 'unsupported_media_type');
      const huge = JSON.stringify({
        name: 'x',
        url: 'https://x.example',
        pad: 'a'.repeat(1_048_576),
      });
      await expectProblem(await create(huge), 413, 'payload_too_large');
      expect(s.harness.service.store.snapshot().websites).toEqual([]);
    });

    it('applies the access rules: 401, 403 for API keys, members, 404 unknown workspace', async () => {
      const body = { name: 'x', url: 'https://x.example' };
      await expectProblem(
        await fetch(sitesUrl(), { method: 'POST', body: JSON.stringify(body) }),
        401,
        'missing_token',
      );
      await expectProblem(await create(body, tokens().apiKey), 403, 'api_key_not_allowed');
      await expectProblem(await create(body, tokens().member), 403, 'forbidden_role');
      await expectProblem(
        await create(body, tokens().admin, 'ws_nope'),
        404,
        'workspace_not_found',
      );
      const free = s.harness.service.workspaceIds.noApiKeysFeature;
      expect((await create(body, tokens().noApiKeysFeature, free)).status).toBe(201);
    });
  });
}
