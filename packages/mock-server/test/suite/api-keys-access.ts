import { describe, expect, it } from 'vitest';
import type { SuiteContext } from './context';

/** Access rules of the key listing: 401, 403 per code, 404. */
export function apiKeysAccessTests(s: SuiteContext): void {
  const { tokens, keysUrl, auth, list, expectProblem } = s;
  describe('GET /v1/workspaces/{workspaceId}/api-keys access', () => {
    it('answers 401 without a bearer token, or with an unknown one', async () => {
      const missing = await expectProblem(await fetch(keysUrl()), 401, 'missing_token');
      expect(missing.detail).toContain('Bearer');
      await expectProblem(
        await fetch(keysUrl(), { headers: { authorization: 'Basic YTpi' } }),
        401,
        'missing_token',
      );
      const invalid = await fetch(keysUrl(), { headers: auth('mock_at_forged') });
      expect(invalid.headers.get('www-authenticate')).toContain('invalid_token');
      const body = await expectProblem(invalid, 401, 'invalid_token');
      expect(JSON.stringify(body)).not.toContain('mock_at_forged');
    });

    it('answers 403 api_key_not_allowed, forbidden_role and feature_not_in_plan', async () => {
      await expectProblem(await list('', tokens().apiKey), 403, 'api_key_not_allowed');
      await expectProblem(await list('', tokens().member), 403, 'forbidden_role');
      const free = s.harness.service.workspaceIds.noApiKeysFeature;
      await expectProblem(
        await fetch(keysUrl('', free), { headers: auth(tokens().noApiKeysFeature) }),
        403,
        'feature_not_in_plan',
      );
      await expectProblem(
        await fetch(keysUrl('', free), { headers: auth() }),
        403,
        'forbidden_role',
      );
    });

    it('answers 401 for the token of a deleted API key', async () => {
      const [oldest] = s.harness.service.store
        .snapshot()
        .apiKeys.filter((key) => tokens().apiKey.startsWith(key.prefix));
      expect(s.harness.service.store.deleteApiKey(oldest!.id)).toBe(true);
      await expectProblem(await list('', tokens().apiKey), 401, 'invalid_token');
    });

    it('answers 404 for an unknown workspace', async () => {
      await expectProblem(
        await fetch(keysUrl('', 'ws_nope'), { headers: auth() }),
        404,
        'workspace_not_found',
      );
    });
  });
}
