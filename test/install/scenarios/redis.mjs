// The installed @cspwatch/redis queue delivers an alert through the test's redis-server with the
// installed sender, to a loopback receiver.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { createDeliveryQueue, createDeliveryWorker } from '@cspwatch/redis/queue';
import { buildAlert } from '@cspwatch/webhook-sender';

const cjs = createRequire(import.meta.url)('@cspwatch/redis');
assert.equal(
  typeof cjs.createRedisChannelStateStore,
  'function',
  'require("@cspwatch/redis") works',
);
const connection = process.env.REDIS_URL;
let delivered;
const arrived = new Promise((resolve) => {
  delivered = resolve;
});
const server = createServer(async (request, response) => {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  response.writeHead(204).end();
  delivered({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const channel = {
  id: 'ch_1',
  url: `http://127.0.0.1:${server.address().port}/hook`,
  secret: 'whsec_install-test-0123456789abcdef',
};

const worker = createDeliveryWorker({
  connection,
  channels: (id) => (id === channel.id ? channel : null),
  sender: { dangerouslyAllowLoopback: true },
});
const queue = createDeliveryQueue({ connection });
const end = Date.now();
const alert = buildAlert({
  rule: 'Install test',
  website: { id: 'ws_1', name: 'Shop', url: 'https://shop.example.com' },
  findings: [
    {
      effectiveDirective: 'img-src',
      blockedUrlOrigin: 'https://pixel.example.org',
      firstSeen: end,
      count: 2,
    },
  ],
  window: { start: end - 60_000, end },
  dashboardUrl: 'https://app.cspwatch.example/ws_1/alerts',
});
await queue.enqueue(channel.id, alert);
const { headers, body } = await arrived;
assert.equal(JSON.parse(body).id, alert.id);
assert.ok(headers['x-cspwatch-signature'], 'signed');
await worker.close();
await queue.close();
server.close();
console.log(`redis: the queue delivered ${alert.id}`);
