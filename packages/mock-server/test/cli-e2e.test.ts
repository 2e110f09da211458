/**
 * The mock as a stand-alone service, driven the way a Python, Go or Java suite would: the
 * CLI started as a child process, everything else over HTTP with plain fetch and JSON.
 */
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';
import { startVerifyingReceiver } from './receiver';
import { createCliRunner } from './spawn-cli';

const cli = createCliRunner();
const run = cli.run;
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  cli.killAll();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const json = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

describe('cspwatch-mock as a stand-alone service', () => {
  it(
    'a CSP report posted to an endpoint reaches a local receiver as a verified alert',
    async () => {
      const secret = 'whsec-e2e-0123456789';
      const receiver = await startVerifyingReceiver(secret);
      cleanups.push(() => receiver.close());
      const mock = run(['--port', '0', '--dangerously-allow-loopback-webhooks']);
      await expect
        .poll(mock.output, { timeout: budget(15_000) })
        .toContain('Press Ctrl-C to stop.');
      expect(mock.output()).toContain('WARNING: webhook channels may deliver to loopback');
      const base = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(mock.output())![1]!;

      const scenario = {
        workspaces: [{ id: 'ws_e2e', name: 'E2E', plan: { name: 'Team' } }],
        users: [{ id: 'usr_e2e', email: 'e2e@example.com', roles: { ws_e2e: 'admin' } }],
        websites: [
          { id: 'web_e2e', workspaceId: 'ws_e2e', name: 'Shop', url: 'https://shop.example.com' },
        ],
        webhookChannels: [{ id: 'wh_e2e', name: 'Receiver', url: receiver.url, secret }],
        alertRules: [{ name: 'New violation types', websiteId: 'web_e2e', channelIds: ['wh_e2e'] }],
      };
      const seeded = await fetch(`${base}/_mock/scenario`, json('POST', scenario));
      expect(seeded.status).toBe(201);
      const { websites, webhookChannels } = await seeded.json();
      expect(JSON.stringify(webhookChannels)).not.toContain(secret);

      const report = await fetch(websites[0].endpointUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/reports+json' },
        body: JSON.stringify([
          {
            type: 'csp-violation',
            age: 20,
            url: 'https://shop.example.com/',
            body: {
              effectiveDirective: 'script-src-elem',
              blockedURL: 'https://cdn.evil.example/x.js',
            },
          },
        ]),
      });
      expect(report.status).toBe(204);
      const alerts = await (await fetch(`${base}/_mock/alerts?wait=1`)).json();
      expect(alerts.data[0].deliveries[0]).toMatchObject({ ok: true, status: 200 });
      expect(receiver.deliveries).toHaveLength(1);
      expect(receiver.deliveries[0]).toMatchObject({
        verified: true,
        event: {
          eventType: 'csp-violation:new-type',
          website: { id: 'web_e2e' },
          findings: [{ key: 'script-src-elem\nhttps://cdn.evil.example' }],
        },
      });
      const channels = await (await fetch(`${base}/_mock/webhook-channels`)).json();
      expect(channels.data[0]).toMatchObject({ enabled: true, consecutiveFailures: 0 });

      expect((await fetch(`${base}/_mock/reset`, { method: 'POST' })).status).toBe(204);
      mock.child.kill('SIGTERM');
      expect((await once(mock.child, 'exit'))[0]).toBe(0);
      expect(mock.output() + mock.errors()).not.toContain(secret);
    },
    budget(30_000),
  );

  it(
    'trigger sends one signed alert to a local handler, prints the outcome, never the secret',
    async () => {
      const secret = 'whsec-trigger-0123456789';
      const receiver = await startVerifyingReceiver(secret);
      cleanups.push(() => receiver.close());
      const ok = run(
        [
          'trigger',
          '--url',
          receiver.url,
          '--allow-loopback',
          '--secret-env',
          'HOOK_SECRET',
          '--directive',
          'frame-src',
        ],
        { HOOK_SECRET: secret },
      );
      expect((await once(ok.child, 'exit'))[0]).toBe(0);
      expect(ok.output()).toMatch(
        /^✔ delivered csp-violation:new-type alert [0-9a-f-]{36} to http:\/\/127\.0\.0\.1:\d+\/webhooks: 200 in \d+ ms\n/,
      );
      expect(receiver.deliveries[0]).toMatchObject({
        verified: true,
        event: { findings: [{ effectiveDirective: 'frame-src' }] },
      });

      const wrong = run(
        ['trigger', '--url', receiver.url, '--allow-loopback', '--secret-env', 'HOOK_SECRET'],
        { HOOK_SECRET: 'a-different-secret-1' },
      );
      expect((await once(wrong.child, 'exit'))[0]).toBe(1);
      expect(wrong.output()).toMatch(/failed \(http_status\) after \d+ ms\n {2}status: 401\n/);

      const unset = run(['trigger', '--url', receiver.url, '--secret-env', 'NOT_SET_ANYWHERE']);
      expect((await once(unset.child, 'exit'))[0]).toBe(2);
      expect(unset.errors()).toMatch(
        /^error: environment variable named by --secret-env is not set .*; see cspwatch-mock trigger --help\n$/,
      );
      for (const outcome of [ok, wrong, unset])
        expect(outcome.output() + outcome.errors()).not.toMatch(/whsec-trigger|a-different-secret/);
    },
    budget(30_000),
  );

  it(
    'takes the control token from CSPWATCH_MOCK_CONTROL_TOKEN, requires it, and never prints it',
    async () => {
      const controlToken = 'ctl-from-env-0123456789abcdef';
      const mock = run(['--port', '0'], { CSPWATCH_MOCK_CONTROL_TOKEN: controlToken });
      await expect
        .poll(mock.output, { timeout: budget(15_000) })
        .toContain('Press Ctrl-C to stop.');
      expect(mock.output()).toContain('token from CSPWATCH_MOCK_CONTROL_TOKEN');
      const base = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(mock.output())![1]!;
      expect((await fetch(`${base}/_mock/state`)).status).toBe(401);
      const wrong = await fetch(`${base}/_mock/state`, {
        headers: { authorization: 'Bearer nope' },
      });
      expect(wrong.status).toBe(401);
      const right = await fetch(`${base}/_mock/state`, {
        headers: { authorization: `Bearer ${controlToken}` },
      });
      expect(right.status).toBe(200);
      mock.child.kill('SIGTERM');
      expect((await once(mock.child, 'exit'))[0]).toBe(0);
      expect(mock.output() + mock.errors()).not.toContain(controlToken);
    },
    budget(30_000),
  );
});
