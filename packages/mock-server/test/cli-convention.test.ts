/**
 * One CLI convention (issue #27): `cspwatch-webhook send-test` and `cspwatch-mock trigger`,
 * run as the built executables, take the same delivery flags and print the same outcome
 * against real receivers: one that verifies with `@cspwatch/webhooks` and its replay guard
 * (refusing with a 4xx), one that accepts everything, one that answers at length. Usage errors
 * are one line and exit 2; network errors name their cause.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createReplayGuard, isWebhookVerificationError, verifyWebhook } from '@cspwatch/webhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Each test runs an executable to its end: on a busy machine that takes seconds, not a budget.
vi.setConfig({ testTimeout: 120_000 });

const SECRET = 'whsec-convention-0123456789';
const MOCK_BIN = fileURLToPath(new URL('../bin/cspwatch-mock.js', import.meta.url));
const SENDER_BIN = join(
  dirname(createRequire(import.meta.url).resolve('@cspwatch/webhook-sender/package.json')),
  'bin/cspwatch-webhook.js',
);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a built executable to its end. */
function exec(bin: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, NO_COLOR: '1', CSPWATCH_WEBHOOK_SECRET: SECRET, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

type Handler = (req: IncomingMessage, body: Buffer, res: ServerResponse) => Promise<void> | void;

async function listen(handler: Handler) {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    await handler(req, Buffer.concat(chunks), res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A long JSON answer: multi-byte text and a long string token that spans the 2 KiB cap. */
const LONG_ANSWER = JSON.stringify({
  received: true,
  notes: Array.from({ length: 60 }, (_, index) => `note ${index}: déjà vu — ✓`),
  token: 'x'.repeat(3000),
});

let verifying: Awaited<ReturnType<typeof listen>>;
let acceptAll: Awaited<ReturnType<typeof listen>>;
let talkative: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  // A customer's receiver: verifies, refuses what fails with 400 and a replay with 409.
  const guard = createReplayGuard();
  verifying = await listen(async (req, body, res) => {
    try {
      const event = await verifyWebhook({ body, headers: req.headers, secret: SECRET });
      await guard.claim(event, req.headers);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    } catch (error) {
      if (!isWebhookVerificationError(error)) throw error;
      const status = error.code === 'replayed_delivery' ? 409 : 400;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: error.code, detail: error.message }));
    }
  });
  acceptAll = await listen((_req, _body, res) => {
    res.end('ok');
  });
  talkative = await listen((_req, _body, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(LONG_ANSWER);
  });
});
afterAll(async () => {
  await Promise.all([verifying.close(), acceptAll.close(), talkative.close()]);
});

const CLIS = [
  {
    name: 'cspwatch-webhook send-test',
    bin: SENDER_BIN,
    command: ['send-test'],
    what: 'sample alert',
  },
  {
    name: 'cspwatch-mock trigger',
    bin: MOCK_BIN,
    command: ['trigger'],
    what: 'csp-violation:new-type alert',
  },
] as const;

const ID = '[0-9a-f-]{36}';
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe.each(CLIS)('$name', ({ name, bin, command, what }) => {
  const send = (url: string, ...flags: string[]) =>
    exec(bin, [...command, '--url', url, '--allow-loopback', ...flags]);

  it('delivers, exit 0, and shows the receiver answer', async () => {
    const { code, stdout, stderr } = await send(verifying.url);
    expect(stderr).toBe('');
    expect(stdout).toMatch(
      new RegExp(
        `^✔ delivered ${what} ${ID} to ${literal(verifying.url)}: 200 in \\d+ ms\\n  response: \\{"received":true\\}\\n$`,
      ),
    );
    expect(code).toBe(0);
  });

  it('--replay: the receiver refuses the second, exit 0', async () => {
    const { code, stdout } = await send(verifying.url, '--replay');
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^✔ delivered ${what} (${ID}) to \\S+: 200 in \\d+ ms$`));
    expect(lines[2]).toMatch(
      new RegExp(
        `^✔ ${literal(verifying.url)} refused the replay of the ${what} ${ID}, as it should: 409 in \\d+ ms$`,
      ),
    );
    expect(lines[3]).toContain('"code":"replayed_delivery"');
    expect(code).toBe(0);
  });

  it('--replay: a receiver that accepts it fails the check, exit 1', async () => {
    const { code, stdout } = await send(acceptAll.url, '--replay');
    expect(stdout).toMatch(
      new RegExp(
        `\\n✘ ${literal(acceptAll.url)} accepted the replay of the ${what} ${ID}: 200 in \\d+ ms; it must refuse it with a 4xx`,
      ),
    );
    expect(code).toBe(1);
  });

  it.each([
    ['--tamper', 'tampered', 'signature_mismatch'],
    ['--stale', 'stale', 'timestamp_too_old'],
  ])(
    '%s: refused with a 4xx is what a receiver must do, exit 0',
    async (flag, variant, verdict) => {
      const { code, stdout } = await send(verifying.url, flag);
      expect(stdout).toMatch(
        new RegExp(`^✔ \\S+ refused the ${variant} ${what} ${ID}, as it should: 400 in \\d+ ms\\n`),
      );
      expect(stdout).toContain(`"code":"${verdict}"`);
      expect(code).toBe(0);
    },
  );

  it.each([
    ['--tamper', 'tampered', 'does it verify the signature over the raw body?'],
    ['--stale', 'stale', 'does it check the timestamp?'],
  ])('%s: accepted by a receiver that does not verify, exit 1', async (flag, variant, hint) => {
    const { code, stdout } = await send(acceptAll.url, flag);
    expect(stdout).toMatch(
      new RegExp(`^✘ \\S+ accepted the ${variant} ${what} ${ID}: 200 in \\d+ ms; `),
    );
    expect(stdout).toContain(hint);
    expect(code).toBe(1);
  });

  it('shows a long answer up to 2 KiB, cut between JSON tokens, with the bytes left out', async () => {
    const { code, stdout } = await send(talkative.url);
    expect(code).toBe(0);
    const match = /\n {2}response: (.*) … \((\d+) more bytes\)\n$/s.exec(stdout);
    expect(match).not.toBeNull();
    const [, shown = '', omitted] = match ?? [];
    const shownBytes = Buffer.byteLength(shown, 'utf8');
    expect(shownBytes).toBeLessThanOrEqual(2048);
    expect(LONG_ANSWER.startsWith(shown)).toBe(true);
    expect(Number(omitted)).toBe(Buffer.byteLength(LONG_ANSWER, 'utf8') - shownBytes);
    // Cut after a delimiter: never inside a string, a number or a UTF-8 sequence.
    expect(shown).toMatch(/[,:[{]$/);
    expect(shown).not.toContain('xxx');
  });

  it('connection refused names ECONNREFUSED and the address, exit 1', async () => {
    const { code, stdout } = await send('http://127.0.0.1:1/hook');
    expect(stdout).toMatch(
      /failed \(network\) after \d+ ms\n {2}connection refused \(ECONNREFUSED 127\.0\.0\.1:1\)\n$/,
    );
    expect(code).toBe(1);
  });

  it('a host that does not resolve names the resolver error, exit 1', async () => {
    const { code, stdout } = await send('https://no-such-host.invalid/hook');
    expect(stdout).toMatch(
      /host "no-such-host\.invalid" could not be resolved \((ENOTFOUND|EAI_AGAIN)\)/,
    );
    expect(code).toBe(1);
  });

  it('refuses a loopback receiver without --allow-loopback and says to add it', async () => {
    const { code, stdout } = await exec(bin, [...command, '--url', verifying.url]);
    expect(stdout).toMatch(/failed \(target_rejected\)[\s\S]*add --allow-loopback\)\n$/);
    expect(code).toBe(1);
  });

  it.each([
    [
      ['--url', 'not-a-url'],
      '--url must be an absolute URL, e.g. https://hooks.example.com/cspwatch',
    ],
    [[], '--url is required, e.g. --url http://127.0.0.1:3000/webhooks'],
    [
      ['--url', 'https://hooks.example.com/', '--timeout', 'abc'],
      '--timeout must be a whole number of milliseconds (got "abc")',
    ],
    [
      ['--url', 'https://hooks.example.com/', '--timeout', '0'],
      '--timeout must be an integer from 1 to 600000 (ms), got 0',
    ],
    [
      ['--url', 'https://hooks.example.com/', '--tamper', '--replay'],
      'give at most one of --replay, --tamper, --stale, --unsigned',
    ],
    [['--url', 'https://hooks.example.com/', '--insecure'], 'unknown option --insecure'],
    [['--url'], '--url needs a value, e.g. --url <value>'],
    [
      ['--url', 'https://hooks.example.com/', '--secret-env', 'UNSET_VARIABLE_X'],
      "environment variable named by --secret-env is not set (--secret-env takes a variable's name, not the secret)",
    ],
  ])('usage error %j: one line, exit 2', async (args, message) => {
    const { code, stdout, stderr } = await exec(bin, [...command, ...args]);
    expect(stderr).toBe(`error: ${message}; see ${name} --help\n`);
    expect(stdout).toBe('');
    expect(code).toBe(2);
  });
});

describe('what each executable adds', () => {
  it('cspwatch-mock trigger keeps --to for a release, loopback allowed as before', async () => {
    const { code, stdout, stderr } = await exec(MOCK_BIN, ['trigger', '--to', verifying.url]);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^✔ delivered csp-violation:new-type alert /);
    expect(code).toBe(0);
  });

  it.each([
    [
      MOCK_BIN,
      ['--port', 'abc'],
      'error: --port must be an integer from 0 to 65535 (got a string); see cspwatch-mock --help\n',
    ],
    [
      MOCK_BIN,
      ['--port', '99999'],
      'error: --port must be an integer from 0 to 65535 (got 99999); see cspwatch-mock --help\n',
    ],
    [
      MOCK_BIN,
      ['--host', '999.1.1.1', '--port', '0'],
      /^error: --host "999\.1\.1\.1" is not an address of this machine \((ENOTFOUND|EAI_AGAIN)\); use 127\.0\.0\.1, or 0\.0\.0\.0 for every interface; see cspwatch-mock --help\n$/,
    ],
    [
      MOCK_BIN,
      ['trgger'],
      'error: unknown command "trgger"; the one command is trigger (no command starts the server); see cspwatch-mock --help\n',
    ],
    [
      SENDER_BIN,
      ['--url', 'x'],
      'error: the command is missing: start with send-test or send, e.g. cspwatch-webhook send-test --url <url>; see cspwatch-webhook --help\n',
    ],
    [
      SENDER_BIN,
      ['deliver'],
      'error: unknown command "deliver"; the commands are send-test and send; see cspwatch-webhook --help\n',
    ],
  ])('%s %j: one line, exit 2', async (bin, args, expected) => {
    const { code, stdout, stderr } = await exec(bin, args);
    if (typeof expected === 'string') expect(stderr).toBe(expected);
    else expect(stderr).toMatch(expected);
    expect(stdout).toBe('');
    expect(code).toBe(2);
  });
});
