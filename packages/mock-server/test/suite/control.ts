import { describe, expect, it } from 'vitest';
import { budget } from '../../../../test-budget';
import { signedPost } from '../signed-post';
import type { SuiteContext } from './context';

const SCENARIO = {
  workspaces: [
    {
      id: 'ws_acme',
      name: 'Acme',
      plan: { name: 'Team', features: ['api_keys', 'webhooks'], websiteLimit: 1 },
    },
    { id: 'ws_free', name: 'Free', plan: { name: 'Free', features: ['webhooks'] } },
  ],
  users: [
    { id: 'usr_ada', email: 'ada@example.com', roles: { ws_acme: 'admin', ws_free: 'admin' } },
    { id: 'usr_bob', email: 'bob@example.com', roles: { ws_acme: 'member' } },
  ],
  apiKeys: [
    { id: 'key_ci', workspaceId: 'ws_acme', name: 'CI deploy', createdBy: 'usr_ada' },
    { workspaceId: 'ws_acme', name: 'Grafana export', createdBy: 'usr_bob' },
  ],
  websites: [
    { id: 'web_shop', workspaceId: 'ws_acme', name: 'Shop', url: 'https://shop.example.com' },
  ],
};

/** The control API under /_mock/: reset, scenario, tokens, inbox, faults, webhook channels. */
export function controlTests(s: SuiteContext): void {
  const { control, expectProblem, list, create, keysUrl, auth } = s;
  const secret = 'whsec-test-1234';

  describe('control API: state', () => {
    it('POST /_mock/reset restores the seeded state', async () => {
      const before = s.harness.service.store.snapshot();
      await s.website();
      expect((await control('POST', '/reset')).status).toBe(204);
      expect(s.harness.service.store.snapshot()).toEqual(before);
    });

    it('POST /_mock/scenario seeds users, roles, plans, keys and websites; reset keeps it; DELETE restores the fixtures', async () => {
      const seeded = await control('POST', '/scenario', SCENARIO);
      expect(seeded.status).toBe(201);
      const summary = await seeded.json();
      const ada = summary.users.find((user: { id: string }) => user.id === 'usr_ada');
      const bob = summary.users.find((user: { id: string }) => user.id === 'usr_bob');
      expect(ada.token).toMatch(/^mock_at_/);
      expect(summary.websites[0].endpointUrl).toMatch(new RegExp(`^${s.harness.baseUrl}/reports/`));
      expect(summary.apiKeys.map((key: { token: string }) => key.token)).toEqual([
        expect.stringMatching(/^cwk_/),
        expect.stringMatching(/^cwk_/),
      ]);
      const page = await fetch(keysUrl('', 'ws_acme'), { headers: auth(ada.token) });
      expect(page.status).toBe(200);
      const names = (await page.json()).data.map((key: { name: string }) => key.name).sort();
      expect(names).toEqual(['CI deploy', 'Grafana export']);
      await expectProblem(
        await fetch(keysUrl('', 'ws_acme'), { headers: auth(bob.token) }),
        403,
        'forbidden_role',
      );
      await expectProblem(
        await fetch(keysUrl('', 'ws_free'), { headers: auth(ada.token) }),
        403,
        'feature_not_in_plan',
      );
      // The plan's website limit (1) is already used by the seeded website.
      await expectProblem(
        await create({ name: 'Two', url: 'https://two.example' }, ada.token, 'ws_acme'),
        403,
        'website_limit_reached',
      );
      expect((await control('POST', '/reset')).status).toBe(204);
      const again = await (await control('GET', '/state')).json();
      expect(again.users.map((user: { token: string }) => user.token)).toEqual(
        summary.users.map((user: { token: string }) => user.token),
      );
      expect((await control('DELETE', '/scenario')).status).toBe(200);
      expect((await list()).status).toBe(200);
    });

    it('refuses an invalid scenario with every field to fix, and keeps the state', async () => {
      const before = s.harness.service.store.snapshot();
      const cases: [unknown, string[]][] = [
        [[], ['(body)']],
        [{}, ['workspaces']],
        [
          { workspaces: [{ id: 'ws 1', name: '', plan: { name: 'P', websiteLimit: -1 } }] },
          ['workspaces.0.id', 'workspaces.0.name', 'workspaces.0.plan.websiteLimit'],
        ],
        [
          { ...SCENARIO, users: [{ id: 'u', email: 'not-an-email', roles: {} }] },
          ['users.0.email'],
        ],
        [
          { ...SCENARIO, apiKeys: [{ workspaceId: 'ws_nope', name: 'k', createdBy: 'usr_nope' }] },
          ['apiKeys.0.workspaceId', 'apiKeys.0.createdBy'],
        ],
        [
          {
            ...SCENARIO,
            websites: [{ id: 'w', workspaceId: 'ws_acme', name: 'x', url: 'javascript:alert(1)' }],
          },
          ['websites.0.url'],
        ],
        [
          // The create endpoint's own rule: '%' only before two hex digits (RFC 3986).
          {
            ...SCENARIO,
            websites: [
              { id: 'w', workspaceId: 'ws_acme', name: 'x', url: 'https://a.example/%zz' },
            ],
          },
          ['websites.0.url'],
        ],
        [
          {
            ...SCENARIO,
            webhookChannels: [
              { id: 'wh_1', name: 'Ops', url: 'https://10.0.0.1/hook', secret: 'short' },
            ],
          },
          ['webhookChannels.0.url', 'webhookChannels.0.secret'],
        ],
        [
          {
            ...SCENARIO,
            alertRules: [{ name: 'r', websiteId: 'web_shop', channelIds: ['wh_nope'] }],
          },
          ['alertRules.0.channelIds.0'],
        ],
        [{ ...SCENARIO, extra: true }, ['extra']],
      ];
      for (const [body, paths] of cases) {
        const problem = await expectProblem(
          await control('POST', '/scenario', body),
          400,
          'validation_failed',
        );
        expect(problem.errors?.map((error) => error.path).sort()).toEqual([...paths].sort());
        for (const error of problem.errors ?? []) expect(error.message.length).toBeGreaterThan(5);
      }
      expect(s.harness.service.store.snapshot()).toEqual(before);
    });

    it('PUT /_mock/faults switches faults at run time; {} turns them off; bad values are 400', async () => {
      const set = await control('PUT', '/faults', { rateLimitEvery: 1, retryAfterSeconds: 7 });
      expect((await set.json()).rateLimitEvery).toBe(1);
      const limited = await list();
      expect(limited.headers.get('retry-after')).toBe('7');
      await expectProblem(limited, 429, 'rate_limited');
      expect((await (await control('GET', '/faults')).json()).retryAfterSeconds).toBe(7);
      await control('PUT', '/faults', {});
      expect((await list()).status).toBe(200);
      const bad = await expectProblem(
        await control('PUT', '/faults', { serverErrorRate: 2, nope: 1 }),
        400,
        'validation_failed',
      );
      expect(bad.errors?.map((error) => error.path).sort()).toEqual(['nope', 'serverErrorRate']);
    });
  });

  describe('control API: tokens', () => {
    it('issues a user token that works, then expires and revokes tokens (401 invalid_token)', async () => {
      const { users } = await (await control('GET', '/state')).json();
      const admin = users.find((user: { token: string }) => user.token === s.tokens().admin);
      const issued = await control('POST', '/tokens', { userId: admin.id });
      expect(issued.status).toBe(201);
      const { token } = await issued.json();
      expect((await list('', token)).status).toBe(200);
      expect((await control('POST', '/tokens/expire', { token })).status).toBe(204);
      const expired = await list('', token);
      expect(expired.headers.get('www-authenticate')).toContain('expired');
      expect((await expectProblem(expired, 401, 'invalid_token')).detail).toMatch(/expired/);
      expect((await list()).status).toBe(200);
      expect((await control('POST', '/tokens/revoke', { token: s.tokens().admin })).status).toBe(
        204,
      );
      expect((await expectProblem(await list(), 401, 'invalid_token')).detail).toMatch(/revoked/);
      await expectProblem(
        await control('POST', '/tokens/revoke', { token: 'mock_at_unknown' }),
        404,
        'token_not_found',
      );
      await control('POST', '/reset');
      expect((await list()).status).toBe(200);
    });

    it('issues short-lived and API-key tokens; refuses unknown ids and bad bodies', async () => {
      const { users, apiKeys } = await (await control('GET', '/state')).json();
      const short = await (
        await control('POST', '/tokens', { userId: users[0].id, ttlSeconds: 1 })
      ).json();
      expect(Date.parse(short.expiresAt) - Date.now()).toBeLessThanOrEqual(1000);
      const key = await (await control('POST', '/tokens', { apiKeyId: apiKeys[0].id })).json();
      expect(key.token).toMatch(/^cwk_/);
      await expectProblem(await list('', key.token), 403, 'api_key_not_allowed');
      await expectProblem(
        await control('POST', '/tokens', { userId: 'usr_nope' }),
        404,
        'user_not_found',
      );
      await expectProblem(
        await control('POST', '/tokens', { apiKeyId: 'key_nope' }),
        404,
        'api_key_not_found',
      );
      await expectProblem(
        await control('POST', '/tokens', { userId: users[0].id, ttlSeconds: 0 }),
        400,
        'validation_failed',
      );
      await expect
        .poll(async () => (await list('', short.token)).status, { timeout: budget(3000) })
        .toBe(401);
    });
  });

  describe('control API: inbox', () => {
    it('creates a channel, lists deliveries with their verdict, changes the answer, clears', async () => {
      const created = await control('POST', '/inbox/channels', {
        secret,
        response: { status: 202 },
      });
      expect(created.status).toBe(201);
      const channel = await created.json();
      expect(JSON.stringify(channel)).not.toContain(secret);
      expect((await fetch(channel.url, await signedPost({ secret }))).status).toBe(202);
      await fetch(channel.url, await signedPost({ secret: 'another-secret-99' }));
      const listed = await (
        await control('GET', `/inbox/channels/${channel.id}/deliveries`)
      ).json();
      expect(
        listed.data.map((d: { verified: boolean; errorCode?: string; status: number }) => [
          d.verified,
          d.errorCode,
          d.status,
        ]),
      ).toEqual([
        [true, undefined, 202],
        [false, 'signature_mismatch', 400],
      ]);
      expect(
        (await control('PUT', `/inbox/channels/${channel.id}/response`, { status: 500 })).status,
      ).toBe(204);
      expect((await fetch(channel.url, await signedPost({ secret }))).status).toBe(500);
      const channels = await (await control('GET', '/inbox/channels')).json();
      expect(channels.data).toEqual([
        {
          id: channel.id,
          url: channel.url,
          response: { status: 500, hang: false },
          deliveryCount: 3,
        },
      ]);
      expect((await control('DELETE', `/inbox/channels/${channel.id}/deliveries`)).status).toBe(
        204,
      );
      expect(
        (await (await control('GET', `/inbox/channels/${channel.id}/deliveries`)).json()).data,
      ).toEqual([]);
      await expectProblem(
        await control('POST', '/inbox/channels', { secret: 'short' }),
        400,
        'validation_failed',
      );
      await expectProblem(
        await control('PUT', `/inbox/channels/${channel.id}/response`, {
          status: 302,
          location: 'https://a.example/\r\nx: 1',
        }),
        400,
        'validation_failed',
      );
      await expectProblem(
        await control('GET', '/inbox/channels/ch_nope/deliveries'),
        404,
        'channel_not_found',
      );
    });

    it('DELETE /_mock/inbox/deliveries forgets the deliveries of every channel, keeping the channels', async () => {
      const first = s.harness.service.inbox.createChannel({ secret });
      const second = s.harness.service.inbox.createChannel({ secret });
      await fetch(first.url, await signedPost({ secret }));
      await fetch(first.url, await signedPost({ secret: 'another-secret-99' }));
      await fetch(second.url, await signedPost({ secret }));
      const cleared = await control('DELETE', '/inbox/deliveries');
      expect(cleared.status).toBe(200);
      expect(await cleared.json()).toEqual({ deliveries: 3, triggers: 0 });
      expect(s.harness.service.inbox.deliveries(first.id)).toEqual([]);
      expect(s.harness.service.inbox.deliveries(second.id)).toEqual([]);
      expect((await fetch(second.url, await signedPost({ secret }))).status).toBe(200);
      expect(await (await control('DELETE', '/inbox/deliveries')).json()).toEqual({
        deliveries: 1,
        triggers: 0,
      });
      const stray = await expectProblem(
        await control('DELETE', '/inbox/deliveries?channel=x'),
        400,
        'validation_failed',
      );
      expect(stray.errors).toEqual([
        { path: 'channel', message: 'Unknown query parameter: this call takes none.' },
      ]);
      const wrongMethod = await control('POST', '/inbox/deliveries', {});
      expect(wrongMethod.headers.get('allow')).toBe('DELETE');
      await expectProblem(wrongMethod, 405, 'method_not_allowed');
    });
  });

  describe('control API: routing', () => {
    it('answers unknown control paths 404 and wrong methods 405, as problem+json', async () => {
      await expectProblem(await control('GET', '/nothing'), 404, 'not_found');
      const bare = await fetch(`${s.harness.baseUrl}/_mock?token=t`, { redirect: 'manual' });
      expect(bare.status).toBe(308);
      expect(bare.headers.get('location')).toBe('/_mock/?token=t');
      const page = await control('GET', '/');
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
      const wrong = await control('GET', '/reset');
      expect(wrong.headers.get('allow')).toBe('POST');
      await expectProblem(wrong, 405, 'method_not_allowed');
      await expectProblem(
        await control('POST', '/scenario', undefined),
        415,
        'unsupported_media_type',
      );
    });
  });

  describe('control API: its own document, the page endpoints and alert rules', () => {
    it('GET /_mock/openapi.json is the committed document of the mock surface', async () => {
      const response = await control('GET', '/openapi.json');
      expect(response.status).toBe(200);
      const document = await response.json();
      expect(document).toMatchObject({ openapi: '3.1.0', info: { title: 'cspwatch mock server' } });
      expect(Object.keys(document.paths)).toContain('/_mock/scenario');
    });

    it('GET /_mock/revision counts changes the page shows; GET /_mock/fragment renders them', async () => {
      const first = (await (await control('GET', '/revision')).json()).revision;
      await control('POST', '/webhook-channels', {
        name: 'Pager',
        url: 'https://hooks.example.com/pager',
        secret,
      });
      const second = (await (await control('GET', '/revision')).json()).revision;
      expect(second).toBeGreaterThan(first);
      const fragment = await control('GET', '/fragment');
      expect(fragment.headers.get('x-mock-revision')).toBe(String(second));
      expect(await fragment.text()).toContain('Pager');
    });

    it('GET lists alert rules; DELETE removes one, then answers 404 rule_not_found', async () => {
      const site = await s.website();
      const rule = await (
        await control('POST', '/alert-rules', { name: 'Watch', websiteId: site.id, channelIds: [] })
      ).json();
      expect((await (await control('GET', '/alert-rules')).json()).data).toEqual([rule]);
      expect((await control('DELETE', `/alert-rules/${rule.id}`)).status).toBe(204);
      await expectProblem(
        await control('DELETE', `/alert-rules/${rule.id}`),
        404,
        'rule_not_found',
      );
    });
  });
}
