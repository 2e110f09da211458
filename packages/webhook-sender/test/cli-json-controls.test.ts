import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureCli } from './helpers/capture-cli';
import { startReceiver } from './helpers/receiver';

const ENV = { CSPWATCH_WEBHOOK_SECRET: 'json-controls-secret' };
// C1 controls (CSI, OSC, NEL) and DEL: JSON.stringify leaves them raw, and a terminal may act on them.
const HOSTILE = 'x\u009b2J\u009d0;pwned\u0007\u0085\u007fy';
const RAW_CONTROL = /[\u007f-\u009f]/;

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver((request, response) => {
    if (request.url === '/redirect') {
      // A header value is Latin-1 on the wire: 0x9b arrives as U+009B.
      response.writeHead(302, {
        location: Buffer.from('/next\u009b2J', 'latin1').toString('latin1'),
      });
      response.end(HOSTILE);
    } else response.writeHead(500).end(HOSTILE);
  });
});
afterAll(async () => {
  await receiver.close();
});

describe('--json output of text from the receiver', () => {
  it.each([
    ['an error answer', '/error'],
    ['a redirect', '/redirect'],
  ])('escapes C1 controls and DEL in %s, and parses back to the same text', async (_, path) => {
    const run = await captureCli(
      ['send-test', '--url', `${receiver.url}${path}`, '--allow-loopback', '--json'],
      ENV,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).not.toMatch(RAW_CONTROL);
    const result = JSON.parse(run.stdout);
    expect(result.responseExcerpt).toBe(HOSTILE);
    if (path === '/redirect') expect(result.location).toBe('/next\u009b2J');
  });
});
