/**
 * Printed URLs carry no userinfo and no query value (`redactUrls`): every command and error path of the real
 * `cspwatch-webhook` executable (built: its launcher and dist/, its stdout and stderr captured) is run
 * with a URL whose userinfo and query hold a secret, and with receivers that send such URLs
 * back (a redirect, an error page that echoes them); neither secret may appear anywhere.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';
import { startReceiver } from './helpers/receiver';

const CLI = fileURLToPath(new URL('../bin/cspwatch-webhook.js', import.meta.url));
const PASSWORD = 's3cr3t-PASSWORD';
const TOKEN = 's3cr3t-TOKEN';
const SECRET_URL = `https://user:${PASSWORD}@127.0.0.1:1/hook?token=${TOKEN}`;
const SIGNING_SECRET = 'signing-secret-0123456789';
const ENV = { CSPWATCH_WEBHOOK_SECRET: SIGNING_SECRET };

interface Run {
  code: number | null;
  output: string;
}

/** Runs the executable as a user would, stdin given, and collects both streams. */
function cli(argv: string[], env: Record<string, string> = ENV, stdin = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...argv], {
      env: { ...process.env, NO_COLOR: '1', CSPWATCH_WEBHOOK_SECRET: '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(stdin);
  });
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let dir: string;
/** The receiver's URL for an answer, with the token in its query. */
const at = (answer: string) => `${receiver.url}/${answer}?token=${TOKEN}`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cspwatch-url-secrets-'));
  receiver = await startReceiver((request, response) => {
    const answer = request.url.slice(1).split('?')[0];
    if (answer === 'redirect') response.writeHead(302, { location: SECRET_URL }).end();
    else if (answer === 'echo')
      response.writeHead(500).end(`no route for ${request.url}; try ${SECRET_URL}`);
    else if (answer === 'hang') return;
    else response.end(`thanks, ${request.url}`);
  });
});
afterAll(async () => {
  await receiver.close();
  await rm(dir, { recursive: true, force: true });
});

const file = async (name: string, text: string) => {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
};

describe('cspwatch-webhook prints no secret of a URL', () => {
  const loopback = ['--allow-loopback'];
  const cases: [name: string, argv: () => Promise<string[]> | string[], stdin?: string][] = [
    ['send-test: the URL refused for its userinfo', () => ['send-test', '--url', SECRET_URL]],
    ['send-test --json', () => ['send-test', '--url', SECRET_URL, '--json']],
    ['send-test, loopback allowed', () => ['send-test', '--url', SECRET_URL, ...loopback]],
    [
      'send-test: connection refused',
      () => ['send-test', '--url', `https://127.0.0.1:1/hook?token=${TOKEN}`, ...loopback],
    ],
    ['send-test: delivered', () => ['send-test', '--url', at('ok'), ...loopback]],
    ['send-test: a redirect', () => ['send-test', '--url', at('redirect'), ...loopback]],
    [
      'send-test: a redirect, --json',
      () => ['send-test', '--url', at('redirect'), '--json', ...loopback],
    ],
    ['send-test: an error page', () => ['send-test', '--url', at('echo'), ...loopback]],
    [
      'send-test: a timeout',
      () => ['send-test', '--url', at('hang'), '--timeout', '300', ...loopback],
    ],
    [
      'send-test: white space in the userinfo',
      () => ['send-test', '--url', `https://us er:${PASSWORD}@127.0.0.1:1/`],
    ],
    ['send-test: no scheme', () => ['send-test', '--url', `user:${PASSWORD}@hooks.example.com`]],
    ['send-test: not a URL', () => ['send-test', '--url', `https://user:${PASSWORD}@[bad/`]],
    ['send-test: --help', () => ['send-test', '--url', SECRET_URL, '--help']],
    ['send: the sample alert', () => ['send', '--url', SECRET_URL]],
    [
      'send --tamper to an error page',
      () => ['send', '--url', at('echo'), '--tamper', ...loopback],
    ],
    ['send --unsigned, delivered', () => ['send', '--url', at('ok'), '--unsigned', ...loopback]],
    ['send --stale, redirected', () => ['send', '--url', at('redirect'), '--stale', ...loopback]],
    [
      'send: a payload file that holds the URL',
      async () => [
        'send',
        '--url',
        at('echo'),
        '--payload',
        await file('payload.json', JSON.stringify({ website: { url: SECRET_URL } })),
        ...loopback,
      ],
    ],
    [
      'send: a payload that is not JSON',
      async () => ['send', '--url', SECRET_URL, '--payload', await file('bad.json', SECRET_URL)],
    ],
    [
      'send: a payload that is not an object',
      async () => [
        'send',
        '--url',
        SECRET_URL,
        '--payload',
        await file('string.json', JSON.stringify(SECRET_URL)),
      ],
    ],
    [
      'send: a payload path that is a URL',
      () => ['send', '--url', SECRET_URL, '--payload', SECRET_URL],
    ],
    [
      'send: --payload - from stdin',
      () => ['send', '--url', SECRET_URL, '--payload', '-'],
      SECRET_URL,
    ],
    ['send: two variants', () => ['send', '--url', SECRET_URL, '--tamper', '--stale']],
    ['send: stdin twice', () => ['send', '--url', SECRET_URL, '--payload', '-', '--secret-stdin']],
    ['send: a bad --event-type', () => ['send', '--url', SECRET_URL, '--event-type', SECRET_URL]],
    [
      'send-test --replay to an error page',
      () => ['send-test', '--url', at('echo'), '--replay', ...loopback],
    ],
    [
      'send-test --replay, accepted twice',
      () => ['send-test', '--url', at('ok'), '--replay', ...loopback],
    ],
    [
      'send-test --replay --json',
      () => ['send-test', '--url', at('ok'), '--replay', '--json', ...loopback],
    ],
    [
      'send-test --tamper, accepted',
      () => ['send-test', '--url', at('ok'), '--tamper', ...loopback],
    ],
    [
      'send-test --stale, redirected, --json',
      () => ['send-test', '--url', at('redirect'), '--stale', '--json', ...loopback],
    ],
    [
      'send-test: a host that does not resolve',
      () => ['send-test', '--url', `https://no-such-host.invalid/hook?token=${TOKEN}`],
    ],
    ['no command, the URL first', () => ['--url', SECRET_URL]],
    ['send-test: a flag without its value', () => ['send-test', SECRET_URL, '--url']],
    ['send-test: two checks', () => ['send-test', '--url', SECRET_URL, '--replay', '--stale']],
    ['a URL as an option', () => ['send-test', `--${SECRET_URL}`]],
    ['a URL as a flag value', () => ['send-test', `--json=${SECRET_URL}`]],
    ['a URL as an argument', () => ['send-test', SECRET_URL]],
    ['a URL as the command', () => [SECRET_URL]],
    ['no --url value', () => ['send-test', '--url']],
    ['a bad --timeout', () => ['send-test', '--url', SECRET_URL, '--timeout', SECRET_URL]],
    [
      'two secret sources',
      () => ['send-test', '--url', SECRET_URL, '--secret-env', 'X', '--secret-stdin'],
    ],
  ];

  it.concurrent.each(cases)(
    '%s',
    async (_name, argv, stdin) => {
      const { code, output } = await cli(await argv(), ENV, stdin);
      expect(code).not.toBe(70); // 70: an unexpected error, a path of its own
      expect(output).not.toBe('');
      expect(output).not.toContain(PASSWORD);
      expect(output).not.toContain(TOKEN);
    },
    30_000,
  );

  it(
    'without a secret anywhere, still names the URL it refused (host and path)',
    async () => {
      const { code, output } = await cli(['send-test', '--url', SECRET_URL]);
      expect(code).toBe(1);
      expect(output).toContain(
        'to https://127.0.0.1:1/hook?token=[redacted] failed (target_rejected)',
      );
      const missing = await cli(['send-test', '--url', SECRET_URL], {});
      expect(missing.code).toBe(2);
      expect(missing.output).toMatch(/CSPWATCH_WEBHOOK_SECRET is not set/);
    },
    budget(30_000),
  );
});
