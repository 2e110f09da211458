/**
 * DESIGN.md, "Printed URLs carry no userinfo": every command and error path of the real
 * `cspwatch-mock` executable (built, stdout and stderr captured) is run with a
 * URL whose userinfo and query hold a secret, with handlers that send such URLs back, and with
 * requests that carry a token in their query (the control API takes `?token=`); neither secret
 * may appear anywhere in what it prints.
 */
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { budget } from '../../../test-budget';
import { createCliRunner } from './spawn-cli';

const PASSWORD = 's3cr3t-PASSWORD';
const TOKEN = 's3cr3t-TOKEN';
const SECRET_URL = `https://user:${PASSWORD}@127.0.0.1:1/hook?token=${TOKEN}`;
const ENV = { NO_COLOR: '1', HOOK_SECRET: 'whsec-url-secrets-0123456789' };

let handler: Server;
let handlerUrl: string;
let dir: string;
/** The handler's URL for an answer, with the token in its query. */
const at = (answer: string) => `${handlerUrl}/${answer}?token=${TOKEN}`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cspwatch-mock-url-secrets-'));
  handler = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const answer = req.url?.slice(1).split('?')[0];
    if (answer === 'redirect') res.writeHead(302, { location: SECRET_URL }).end();
    else if (answer === 'echo') res.writeHead(500).end(`no route for ${req.url}; ${SECRET_URL}`);
    else if (answer === 'body') res.writeHead(400).end(Buffer.concat(chunks));
    else if (answer !== 'hang') res.end(`thanks, ${req.url}`);
  });
  await new Promise<void>((resolve) => handler.listen(0, '127.0.0.1', resolve));
  handlerUrl = `http://127.0.0.1:${(handler.address() as AddressInfo).port}`;
});
afterAll(async () => {
  handler.closeAllConnections();
  await new Promise((resolve) => handler.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const file = async (name: string, text: string) => {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
};

/** Runs the command to its end; both streams together. One runner each: tests run at once. */
async function finished(args: string[], env: Record<string, string> = {}) {
  const cli = createCliRunner();
  try {
    const run = cli.run(args, { ...ENV, ...env });
    const [code] = await once(run.child, 'close');
    return { code: code as number, printed: run.output() + run.errors() };
  } finally {
    cli.killAll();
  }
}

const expectNoSecret = (printed: string) => {
  expect(printed).not.toContain(PASSWORD);
  expect(printed).not.toContain(TOKEN);
};

describe('cspwatch-mock prints no secret of a URL', () => {
  const hook = ['--secret-env', 'HOOK_SECRET'];
  const alert = (input: unknown) => file(`alert-${Math.random()}.json`, JSON.stringify(input));
  const cases: [
    name: string,
    args: () => Promise<string[]> | string[],
    env?: Record<string, string>,
  ][] = [
    ['trigger: the URL refused for its userinfo', () => ['trigger', '--to', SECRET_URL, ...hook]],
    [
      'trigger: connection refused',
      () => ['trigger', '--to', `https://127.0.0.1:1/hook?token=${TOKEN}`, ...hook],
    ],
    ['trigger: delivered', () => ['trigger', '--to', at('ok'), ...hook]],
    ['trigger: a redirect', () => ['trigger', '--to', at('redirect'), ...hook]],
    ['trigger: an error page', () => ['trigger', '--to', at('echo'), ...hook]],
    ['trigger: a timeout', () => ['trigger', '--to', at('hang'), '--timeout', '300', ...hook]],
    [
      'trigger: the alert echoed back, its URLs given',
      () => [
        'trigger',
        '--to',
        at('body'),
        '--website-url',
        SECRET_URL,
        '--origin',
        SECRET_URL,
        ...hook,
      ],
    ],
    [
      'trigger: an alert file holding the URL',
      async () => [
        'trigger',
        '--to',
        at('body'),
        '--alert-file',
        await alert({ rule: SECRET_URL }),
        ...hook,
      ],
    ],
    [
      'trigger: an invalid alert file holding the URL',
      async () => [
        'trigger',
        '--to',
        at('ok'),
        '--alert-file',
        await alert({ website: { url: SECRET_URL }, dashboardUrl: SECRET_URL }),
        ...hook,
      ],
    ],
    [
      'trigger: an alert file that is not JSON',
      async () => [
        'trigger',
        '--to',
        at('ok'),
        '--alert-file',
        await file('bad.json', SECRET_URL),
        ...hook,
      ],
    ],
    [
      'trigger: an alert file path that is a URL',
      () => ['trigger', '--to', at('ok'), '--alert-file', SECRET_URL, ...hook],
    ],
    [
      'trigger: a short secret',
      () => ['trigger', '--to', SECRET_URL, ...hook],
      { HOOK_SECRET: 'short' },
    ],
    ['trigger: no --secret-env', () => ['trigger', '--to', SECRET_URL]],
    [
      'trigger: an unset --secret-env',
      () => ['trigger', '--to', SECRET_URL, '--secret-env', 'UNSET_X'],
    ],
    [
      'trigger: a bad --timeout',
      () => ['trigger', '--to', SECRET_URL, ...hook, '--timeout', SECRET_URL],
    ],
    [
      'trigger: no scheme',
      () => ['trigger', '--to', `user:${PASSWORD}@hooks.example.com`, ...hook],
    ],
    [
      'trigger: white space in the userinfo',
      () => ['trigger', '--to', `https://us er:${PASSWORD}@127.0.0.1:1/`, ...hook],
    ],
    [
      'trigger --url, loopback allowed',
      () => ['trigger', '--url', at('ok'), '--allow-loopback', ...hook],
    ],
    ['trigger --url, loopback not allowed', () => ['trigger', '--url', at('ok'), ...hook]],
    [
      'trigger --url: the URL refused for its userinfo',
      () => ['trigger', '--url', SECRET_URL, ...hook],
    ],
    [
      'trigger --replay to an error page',
      () => ['trigger', '--url', at('echo'), '--allow-loopback', '--replay', ...hook],
    ],
    [
      'trigger --replay, accepted twice, --json',
      () => ['trigger', '--url', at('ok'), '--allow-loopback', '--replay', '--json', ...hook],
    ],
    [
      'trigger --tamper, the alert echoed back',
      () => [
        'trigger',
        '--url',
        at('body'),
        '--allow-loopback',
        '--tamper',
        '--origin',
        SECRET_URL,
        ...hook,
      ],
    ],
    [
      'trigger --stale, redirected',
      () => ['trigger', '--url', at('redirect'), '--allow-loopback', '--stale', ...hook],
    ],
    ['trigger: a flag without its value', () => ['trigger', SECRET_URL, '--url']],
    [
      'trigger: two checks',
      () => ['trigger', '--url', SECRET_URL, '--tamper', '--unsigned', ...hook],
    ],
    ['server: an unknown command', () => ['trgger', '--url', SECRET_URL]],
    ['trigger: the URL as an argument', () => ['trigger', SECRET_URL]],
    ['trigger: the URL as an option', () => ['trigger', `--${SECRET_URL}`]],
    ['server: a bad --port', () => ['--port', SECRET_URL]],
    ['server: a bad --api-keys', () => ['--api-keys', SECRET_URL]],
    ['server: a bad --server-error-rate', () => ['--server-error-rate', SECRET_URL]],
    ['server: --host is a URL', () => ['--port', '0', '--host', SECRET_URL]],
    ['server: a --scenario path that is a URL', () => ['--port', '0', '--scenario', SECRET_URL]],
    [
      'server: a --scenario that is not JSON',
      async () => ['--port', '0', '--scenario', await file('scenario.txt', SECRET_URL)],
    ],
    [
      'server: a --scenario that does not validate',
      async () => [
        '--port',
        '0',
        '--scenario',
        await alert({
          workspaces: [{ id: SECRET_URL }],
          webhookChannels: [{ id: 'wh', name: 'x', url: SECRET_URL, secret: 'whsec-0123456789' }],
        }),
      ],
    ],
    ['server: the URL as an option', () => [`--${SECRET_URL}`]],
    ['server: the URL as an argument', () => [SECRET_URL]],
    ['server: a flag given the URL', () => [`--quiet=${SECRET_URL}`]],
  ];

  it.concurrent.each(cases)(
    '%s',
    async (_name, args, env) => {
      const { code, printed } = await finished(await args(), env);
      expect([0, 1, 2]).toContain(code); // an outcome, a failed delivery or a usage error
      expect(printed).not.toBe('');
      expectNoSecret(printed);
    },
    30_000,
  );

  it(
    'trigger --help exits 0 and names no secret',
    async () => {
      const { code, printed } = await finished(['trigger', '--to', SECRET_URL, '--help']);
      expect(code).toBe(0);
      expectNoSecret(printed);
    },
    budget(30_000),
  );

  it(
    'the request log shows no query value, the control token included',
    async () => {
      const controlToken = `ctl-${TOKEN}-0123456789`;
      const cli = createCliRunner();
      const mock = cli.run(['--port', '0'], { ...ENV, CSPWATCH_MOCK_CONTROL_TOKEN: controlToken });
      onTestFinished(() => cli.killAll());
      await expect
        .poll(mock.output, { timeout: budget(20_000) })
        .toContain('Press Ctrl-C to stop.');
      const base = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(mock.output())?.[1] as string;
      expect((await fetch(`${base}/_mock/?token=${controlToken}`)).status).toBe(200);
      await fetch(`${base}/v1/workspaces/ws/api-keys?limit=2&token=${TOKEN}`);
      await fetch(`${base}/${SECRET_URL}`);
      await expect
        .poll(mock.output, { timeout: budget(5_000) })
        .toMatch(/^GET \/https:.* 404 \d+ ms$/m);
      expect(mock.output()).toMatch(/^GET \/_mock\/\?token=\[redacted\] 200 \d+ ms$/m);
      expect(mock.output()).toMatch(/^GET \/v1\/.*\?limit=\[redacted\]&token=\[redacted\] 401/m);
      mock.child.kill('SIGTERM');
      expect((await once(mock.child, 'close'))[0]).toBe(0);
      expectNoSecret(mock.output() + mock.errors());
    },
    budget(30_000),
  );
});
