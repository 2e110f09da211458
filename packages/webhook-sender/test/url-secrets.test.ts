/**
 * Printed URLs carry no userinfo and no query value (`redactUrls`), for the library: a thrown error (its message,
 * its string form and its `cause` chain) and every text of a `DeliveryResult` (what the CLI,
 * the mock and the Redis history print or store whole) hold no userinfo or query value of a
 * URL, whether the caller gave it or a receiver sent it back.
 */
import { createSampleAlert } from '@cspwatch/webhooks/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildAlert,
  checkWebhookTarget,
  createWebhookChannel,
  createWebhookSender,
  type DeliveryResult,
  updateWebhookChannel,
  type WebhookSender,
} from '../src/index';
import { startReceiver } from './helpers/receiver';

const PASSWORD = 's3cr3t-PASSWORD';
const TOKEN = 's3cr3t-TOKEN';
const SECRET_URL = `https://user:${PASSWORD}@127.0.0.1:1/hook?token=${TOKEN}`;
const SIGNING_SECRET = 'signing-secret-0123456789';

/** Everything an error shows when printed or logged: message, string, stack, causes. */
function printedError(error: unknown): string {
  const parts: string[] = [];
  for (let current = error, depth = 0; current !== undefined && depth < 10; depth++) {
    parts.push(String(current));
    if (current instanceof Error) parts.push(current.message, current.stack ?? '');
    current = (current as { cause?: unknown } | null)?.cause;
  }
  return parts.join('\n');
}

const expectNoSecret = (text: string) => {
  expect(text).not.toContain(PASSWORD);
  expect(text).not.toContain(TOKEN);
};

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let sender: WebhookSender;
const at = (answer: string) => `${receiver.url}/${answer}?token=${TOKEN}`;

beforeAll(async () => {
  receiver = await startReceiver((request, response) => {
    const answer = request.url.slice(1).split('?')[0];
    if (answer === 'redirect') response.writeHead(302, { location: SECRET_URL }).end();
    else if (answer === 'echo')
      response.writeHead(500).end(`{"error":"no route for ${request.url}","see":"${SECRET_URL}"}`);
    else if (answer !== 'hang') response.end(`thanks, ${request.url}`);
  });
  sender = createWebhookSender({ dangerouslyAllowLoopback: true, timeoutMs: 1000 });
});
afterAll(async () => {
  await sender.close();
  await receiver.close();
});

describe('errors of the sender name no secret of a URL', () => {
  it.each([
    [
      'createWebhookChannel',
      () => createWebhookChannel({ name: 'Ops', url: SECRET_URL, secret: SIGNING_SECRET }),
    ],
    [
      'updateWebhookChannel',
      () => {
        const channel = createWebhookChannel({
          name: 'Ops',
          url: 'https://hooks.example.com/x',
          secret: SIGNING_SECRET,
        });
        return updateWebhookChannel(channel, { url: SECRET_URL });
      },
    ],
    [
      'buildAlert with URL fields and a bad one',
      () =>
        buildAlert({
          rule: SECRET_URL,
          website: { id: 'w', name: 'Shop', url: SECRET_URL },
          findings: [],
          window: { start: 2, end: 1 },
          dashboardUrl: `not a url ${SECRET_URL}`,
        }),
    ],
    [
      'an unknown option named by a URL',
      () => createWebhookSender({ [SECRET_URL]: true } as never),
    ],
    [
      'a channel without a secret',
      () => sender.deliver({ id: 'c', url: SECRET_URL, secret: '' }, createSampleAlert()),
    ],
  ])('%s', async (_name, action) => {
    let error: unknown;
    try {
      await action();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(Error);
    expectNoSecret(printedError(error));
    expectNoSecret(JSON.stringify(error));
  });

  it('a refused target says why without the URL', async () => {
    const verdict = await checkWebhookTarget(SECRET_URL);
    expect(verdict).toMatchObject({ allowed: false, reason: 'userinfo_not_allowed' });
    expectNoSecret(JSON.stringify(verdict));
  });
});

describe('the texts of a DeliveryResult name no secret of a URL', () => {
  const channel = (url: string) => ({ id: 'ch', url, secret: SIGNING_SECRET });
  it.each<[string, () => string, Partial<DeliveryResult>]>([
    ['a URL with userinfo', () => SECRET_URL, { cause: 'target_rejected' }],
    ['connection refused', () => `https://127.0.0.1:1/hook?token=${TOKEN}`, { cause: 'network' }],
    [
      'a redirect to a URL with secrets',
      () => at('redirect'),
      { cause: 'redirect', location: 'https://127.0.0.1:1/hook?token=[redacted]' },
    ],
    ['an error page that echoes them', () => at('echo'), { cause: 'http_status', status: 500 }],
    ['a hung receiver', () => at('hang'), { cause: 'timeout' }],
    ['a receiver that echoes its URL', () => at('ok'), { ok: true }],
  ])('%s: deliver and the Test action', async (_name, url, expected) => {
    for (const result of [
      await sender.deliver(channel(url()), createSampleAlert()),
      await sender.sendTest(channel(url())),
    ]) {
      expect(result).toMatchObject(expected);
      expectNoSecret(JSON.stringify(result));
    }
  });

  it('keeps the names and the shape: the echoed body shows where it was sent', async () => {
    const result = await sender.sendTest(channel(at('echo')));
    expect(result.responseExcerpt).toBe(
      '{"error":"no route for /echo?token=[redacted]","see":"https://127.0.0.1:1/hook?token=[redacted]"}',
    );
  });
});
