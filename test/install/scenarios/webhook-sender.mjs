// The installed @cspwatch/webhook-sender delivers a signed alert to a loopback receiver, which
// checks the signature with node:crypto (HMAC-SHA256 of `<timestamp>.<body>`).
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { buildAlert, createWebhookSender } from '@cspwatch/webhook-sender';

const cjs = createRequire(import.meta.url)('@cspwatch/webhook-sender');
assert.equal(
  typeof cjs.createWebhookSender,
  'function',
  'require("@cspwatch/webhook-sender") works',
);
const secret = 'whsec_install-test-0123456789abcdef';
const received = [];
const server = createServer(async (request, response) => {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
  response.writeHead(204).end();
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

const sender = createWebhookSender({ dangerouslyAllowLoopback: true });
const end = Date.now();
const alert = buildAlert({
  rule: 'Install test',
  website: { id: 'ws_1', name: 'Shop', url: 'https://shop.example.com' },
  findings: [
    {
      effectiveDirective: 'script-src',
      blockedUrlOrigin: 'https://cdn.example.net',
      firstSeen: end,
      count: 1,
    },
  ],
  window: { start: end - 60_000, end },
  dashboardUrl: 'https://app.cspwatch.example/ws_1/alerts',
});
const channel = { id: 'ch_1', url: `http://127.0.0.1:${server.address().port}/hook`, secret };
const result = await sender.deliver(channel, alert);
assert.equal(result.ok, true, JSON.stringify(result));
assert.equal(received.length, 1);
const [{ headers, body }] = received;
const timestamp = headers['x-cspwatch-timestamp'];
const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
assert.ok(String(headers['x-cspwatch-signature']).includes(expected), 'signature checks out');
assert.equal(JSON.parse(body).id, alert.id);
await sender.close();
server.close();
console.log(`webhook-sender: delivered ${alert.id}, signature checks out`);
