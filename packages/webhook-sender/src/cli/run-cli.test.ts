import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureCli } from '../../test/helpers/capture-cli';
import { startInbox } from '../../test/helpers/inbox';
import type { DeliveryResult } from '../delivery/delivery-result';
import { describeDeliveries } from './describe-delivery';

const SECRET = 'cli-secret-Ω-1234';
let verifyingInbox: Awaited<ReturnType<typeof startInbox>>;

beforeAll(async () => {
  verifyingInbox = await startInbox();
});
afterAll(async () => {
  await verifyingInbox.close();
});

async function run(argv: string[], env: Record<string, string> = {}, stdin = '') {
  const result = await captureCli(argv, env, stdin);
  expect(`${result.stdout}${result.stderr}`).not.toContain(SECRET);
  return result;
}

function inbox(status = 200) {
  return verifyingInbox.createChannel({ secret: SECRET, response: { status } });
}

describe('cspwatch-webhook send-test', () => {
  it('sends a signed sample alert the inbox verifies, secret from an env var', async () => {
    const channel = inbox();
    const { code, stdout } = await run(
      ['send-test', '--url', channel.url, '--secret-env', 'MY_SECRET', '--allow-loopback'],
      { MY_SECRET: SECRET },
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^✔ delivered sample alert [0-9a-f-]{36} to http:\/\/127\.0\.0\.1:\d+\/\S+: 200 in \d+ ms\n/,
    );
    const [delivery] = verifyingInbox.deliveries(channel.id);
    expect(delivery).toMatchObject({
      verified: true,
      event: { eventType: 'csp-violation:new-type', rule: 'Test alert' },
    });
  });

  it('reads CSPWATCH_WEBHOOK_SECRET by default, and the secret from stdin with --secret-stdin', async () => {
    const channel = inbox();
    expect(
      (
        await run(['send-test', '--url', channel.url, '--allow-loopback'], {
          CSPWATCH_WEBHOOK_SECRET: SECRET,
        })
      ).code,
    ).toBe(0);
    expect(
      (
        await run(
          ['send-test', '--url', channel.url, '--allow-loopback', '--secret-stdin'],
          {},
          `${SECRET}\n`,
        )
      ).code,
    ).toBe(0);
    expect(verifyingInbox.deliveries(channel.id).map((d) => d.verified)).toEqual([true, true]);
  });

  it('accepts --secret but warns about it', async () => {
    const channel = inbox();
    const { code, stderr } = await run([
      'send-test',
      '--url',
      channel.url,
      '--allow-loopback',
      '--secret',
      SECRET,
    ]);
    expect(code).toBe(0);
    expect(stderr).toMatch(/shell history/);
  });

  it('refuses a loopback URL without --allow-loopback and says how to allow it', async () => {
    const channel = inbox();
    const { code, stdout } = await run(['send-test', '--url', channel.url], {
      CSPWATCH_WEBHOOK_SECRET: SECRET,
    });
    expect(code).toBe(1);
    expect(stdout).toMatch(/failed \(target_rejected\)/);
    expect(stdout).toMatch(/add --allow-loopback/);
    expect(verifyingInbox.deliveries(channel.id)).toHaveLength(0);
  });

  it('exits 1 and shows the status when the endpoint answers non-2xx; --json prints the result', async () => {
    const channel = inbox(500);
    const human = await run(['send-test', '--url', channel.url, '--allow-loopback'], {
      CSPWATCH_WEBHOOK_SECRET: SECRET,
    });
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/failed \(http_status\)[\s\S]*status: 500/);
    const json = await run(['send-test', '--url', channel.url, '--allow-loopback', '--json'], {
      CSPWATCH_WEBHOOK_SECRET: SECRET,
    });
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      status: 500,
      cause: 'http_status',
      test: true,
    });
  });

  it.each([
    [['send-test', '--allow-loopback'], /--url is required/],
    [['send-test', '--url', 'https://hooks.example.com/'], /CSPWATCH_WEBHOOK_SECRET is not set/],
    [
      ['send-test', '--url', 'https://hooks.example.com/', '--secret-env', 'A', '--secret-stdin'],
      /exactly one/,
    ],
    [
      ['send-test', '--url', 'https://hooks.example.com/', '--secret', 'short'],
      /at least 8 characters/,
    ],
    [['send-test', '--url', 'https://hooks.example.com/', '--timeout', 'soon'], /--timeout/],
    [
      ['send-test', '--url', 'https://hooks.example.com/', '--insecure'],
      /^error: unknown option --insecure; see cspwatch-webhook send-test --help\n$/,
    ],
    [['deliver'], /unknown command "deliver"/],
    [[SECRET], /unknown command \(not shown\)/],
    [
      ['send-test', '--url', 'https://hooks.example.com/', '--secret-env', SECRET],
      /named by --secret-env is not set/,
    ],
    [['send-test', '--url', 'https://hooks.example.com/', SECRET], /unexpected argument/],
    [['send-test', '--url', 'notaurl', '--secret-env', 'A'], /--url must be an absolute URL/],
    [['send-test', '--url', 'https://hooks.example.com/', '--timeout', '-5'], /--timeout must be/],
    [
      [
        'send-test',
        '--url',
        'https://hooks.example.com/',
        '--secret-env',
        'A',
        '--timeout',
        '99999999',
      ],
      /^error: --timeout must be an integer from 1 to 600000 \(ms\), got 99999999; see cspwatch-webhook send-test --help\n$/,
    ],
  ])('exits 2 on usage errors: %j', async (argv, message) => {
    const { code, stderr } = await run(argv, { A: SECRET });
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('prints its version for --version and -v', async () => {
    for (const flag of ['--version', '-v']) {
      const { code, stdout } = await run([flag]);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^cspwatch-webhook \d+\.\d+\.\d+\n$/);
    }
  });

  it('names the URL it delivered to without userinfo or query values, and colours the mark only when asked', () => {
    const result = { ok: true, status: 204, alertId: 'a1', durationMs: 5 } as DeliveryResult;
    const url = 'https://u:pw@hooks.example.com/cspwatch?tenant=7&sig=abc';
    const shown = 'https://hooks.example.com/cspwatch?tenant=[redacted]&sig=[redacted]';
    const describe = (color: boolean) =>
      describeDeliveries([{ result, variant: 'signed' }], {
        url,
        what: 'sample alert',
        allowLoopback: false,
        color,
      });
    const plain = describe(false);
    expect(plain).toBe(`✔ delivered sample alert a1 to ${shown}: 204 in 5 ms\n`);
    const coloured = describe(true);
    expect(coloured).toBe(
      `\u001b[32m✔\u001b[0m delivered sample alert a1 to ${shown}: 204 in 5 ms\n`,
    );
  });

  it('prints usage for --help', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: cspwatch-webhook <command>[\s\S]*send-test/);
  });

  it('prints what the endpoint sent without terminal control characters', () => {
    const result = {
      ok: false,
      status: 302,
      cause: 'redirect',
      location: 'https://x.example/\u001b]0;pwned\u0007',
      error: null,
      responseExcerpt: 'moved\u001b[2J\r\n',
      durationMs: 3,
    } as unknown as DeliveryResult;
    const text = describeDeliveries([{ result, variant: 'signed' }], {
      url: 'https://hooks.example.com/',
      what: 'sample alert',
      allowLoopback: false,
      color: false,
    });
    expect(text).toContain('redirect to (not followed): https://x.example/?]0;pwned?');
    expect(text).toContain('response: moved?[2J\n');
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\r');
    expect(text).not.toContain('\u0007');
  });
});
