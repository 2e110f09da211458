import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureCli } from '../../test/helpers/capture-cli';
import { startInbox } from '../../test/helpers/inbox';
import { startReceiver } from '../../test/helpers/receiver';

const SECRET = 'send-secret-Ω-1234';
const ENV = { CSPWATCH_WEBHOOK_SECRET: SECRET };
let verifyingInbox: Awaited<ReturnType<typeof startInbox>>;
let dir: string;

beforeAll(async () => {
  verifyingInbox = await startInbox();
  dir = await mkdtemp(join(tmpdir(), 'cspwatch-send-'));
});
afterAll(async () => {
  await verifyingInbox.close();
  await rm(dir, { recursive: true, force: true });
});

async function run(argv: string[], stdin = '', env: Record<string, string> = ENV) {
  const result = await captureCli(argv, env, stdin);
  expect(`${result.stdout}${result.stderr}`).not.toContain(SECRET);
  return result;
}

async function payloadFile(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

const inbox = () => verifyingInbox.createChannel({ secret: SECRET });
const send = (url: string, ...rest: string[]) => [
  'send',
  '--url',
  url,
  '--allow-loopback',
  ...rest,
];

describe('cspwatch-webhook send', () => {
  it('sends a JSON object from a file, signed, and adds an id when it has none', async () => {
    const channel = inbox();
    const path = await payloadFile('alert.json', '{"eventType":"custom:thing","value":[1,2]}');
    const { code, stdout } = await run(send(channel.url, '--payload', path));
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^✔ delivered payload [0-9a-f-]{36} to http:\/\/127\.0\.0\.1:\d+\/\S+: 200/,
    );
    const [delivery] = verifyingInbox.deliveries(channel.id);
    expect(delivery?.verified).toBe(true);
    expect(JSON.parse(delivery?.rawBody ?? '')).toEqual({
      eventType: 'custom:thing',
      value: [1, 2],
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('reads the payload from stdin with --payload - and sets --event-type', async () => {
    const channel = inbox();
    const stdin = '{"id":"evt_1","eventType":"csp-violation:new-type"}';
    const { code } = await run(send(channel.url, '--payload', '-', '--event-type', 'x:y'), stdin);
    expect(code).toBe(0);
    const [delivery] = verifyingInbox.deliveries(channel.id);
    expect(delivery?.verified).toBe(true);
    expect(JSON.parse(delivery?.rawBody ?? '')).toEqual({ id: 'evt_1', eventType: 'x:y' });
  });

  it('sends the sample alert without --payload', async () => {
    const channel = inbox();
    expect((await run(send(channel.url))).code).toBe(0);
    expect(verifyingInbox.deliveries(channel.id)[0]?.event).toMatchObject({
      eventType: 'csp-violation:new-type',
      rule: 'Test alert',
    });
  });

  it.each([
    ['--tamper', 'tampered', 'signature_mismatch'],
    ['--stale', 'stale', 'timestamp_too_old'],
    ['--unsigned', 'unsigned', 'missing_header'],
  ])(
    '%s: the receiver refuses it with a 4xx (%s), exit 0, and the output says that is right',
    async (flag, variant, verdict) => {
      const channel = inbox();
      const { code, stdout } = await run(send(channel.url, flag));
      expect(code).toBe(0);
      expect(stdout).toMatch(
        new RegExp(
          `^✔ http://127\\.0\\.0\\.1:\\d+/\\S+ refused the ${variant} sample alert [0-9a-f-]{36}, as it should: 4\\d\\d in \\d+ ms\n`,
        ),
      );
      const [delivery] = verifyingInbox.deliveries(channel.id);
      expect(delivery).toMatchObject({ verified: false, errorCode: verdict });
    },
  );

  it('sends exactly the broken variant asked for', async () => {
    const receiver = await startReceiver();
    try {
      await run(send(receiver.url, '--unsigned'));
      await run(send(receiver.url, '--tamper'));
      await run(send(receiver.url, '--stale'));
      const [unsigned, tampered, stale] = receiver.requests;
      expect(unsigned?.headers['x-cspwatch-signature']).toBeUndefined();
      expect(unsigned?.headers['x-cspwatch-timestamp']).toBeUndefined();
      expect(tampered?.body.at(-1)).toBe(0x20);
      expect(JSON.parse(tampered?.body.toString() ?? '')).toHaveProperty('id');
      const age = Date.now() - Number(stale?.headers['x-cspwatch-timestamp']);
      expect(age).toBeGreaterThanOrEqual(60 * 60_000);
      expect(age).toBeLessThan(61 * 60_000);
    } finally {
      await receiver.close();
    }
  });

  it('--replay sends the first signed request again, byte for byte; --json prints both results', async () => {
    const receiver = await startReceiver();
    try {
      const { code, stdout } = await run(send(receiver.url, '--replay', '--json'));
      expect(code).toBe(1); // the receiver accepted the replay
      const [first, again] = receiver.requests;
      expect(again?.body.equals(first?.body ?? Buffer.alloc(0))).toBe(true);
      expect(again?.headers['x-cspwatch-signature']).toBe(first?.headers['x-cspwatch-signature']);
      expect(again?.headers['x-cspwatch-timestamp']).toBe(first?.headers['x-cspwatch-timestamp']);
      expect(JSON.parse(stdout)).toMatchObject([
        { ok: true, status: 200 },
        { ok: true, status: 200 },
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('fails (exit 1) when a receiver accepts a broken delivery, and says what it must do', async () => {
    const receiver = await startReceiver();
    try {
      const { code, stdout } = await run(send(receiver.url, '--tamper'));
      expect(code).toBe(1);
      expect(stdout).toMatch(
        /^✘ http:\/\/127\.0\.0\.1:\d+ accepted the tampered sample alert \S+: 200 in \d+ ms; it must refuse it with a 4xx \(does it verify the signature over the raw body\?\)\n/,
      );
    } finally {
      await receiver.close();
    }
  });

  it('applies the target policy: loopback only with --allow-loopback', async () => {
    const channel = inbox();
    const { code, stdout } = await run(['send', '--url', channel.url]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/failed \(target_rejected\)[\s\S]*add --allow-loopback/);
    expect(verifyingInbox.deliveries(channel.id)).toHaveLength(0);
  });

  it.each([
    ['not json', '{"id": ', /--payload: \S+bad-not-json\.json is not valid JSON \(/],
    ['an array', '[1,2]', /must hold a JSON object, not an array/],
    ['a string', '"alert"', /must hold a JSON object, not string/],
    ['null', 'null', /must hold a JSON object, not null/],
    ['a numeric id', '{"id": 7}', /"id" field must be a non-empty string/],
  ])('exits 2 when the payload is %s', async (kind, text, message) => {
    const path = await payloadFile(`bad-${kind.replace(/\W/g, '-')}.json`, text);
    const { code, stderr } = await run(send('https://hooks.example.com/', '--payload', path));
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it.each([
    [
      ['--payload', '/nonexistent/cspwatch.json'],
      /--payload: cannot read \/nonexistent\/cspwatch\.json \(ENOENT\)/,
    ],
    [['--tamper', '--stale'], /at most one of --replay, --tamper, --stale, --unsigned/],
    [['--payload', '-', '--secret-stdin'], /both read standard input/],
    [['--event-type', 'has space'], /--event-type must be/],
    [['--timeout', '-1'], /--timeout must be a whole number of milliseconds \(got "-1"\)/],
  ])('exits 2 on usage errors: %j', async (extra, message) => {
    const { code, stderr } = await run(send('https://hooks.example.com/', ...extra));
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('exits 2 for a URL that does not parse, naming --url', async () => {
    const { code, stderr } = await run(['send', '--url', 'notaurl']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--url must be an absolute URL/);
  });
});
