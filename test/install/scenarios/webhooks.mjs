// A receiver built on the installed @cspwatch/webhooks: verifies a signed delivery over real
// HTTP and refuses a tampered one. ESM and CJS entries both load.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { isWebhookVerificationError, signWebhookSync, verifyWebhook } from '@cspwatch/webhooks';
import { createSampleAlert } from '@cspwatch/webhooks/testing';

const cjs = createRequire(import.meta.url)('@cspwatch/webhooks');
assert.equal(typeof cjs.verifyWebhookSync, 'function', 'require("@cspwatch/webhooks") works');
const secret = 'whsec_install-test-0123456789abcdef';

const server = createServer(async (request, response) => {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  try {
    const event = await verifyWebhook({
      body: Buffer.concat(chunks),
      headers: request.headers,
      secret,
    });
    response.writeHead(200).end(event.id);
  } catch (error) {
    response.writeHead(400).end(isWebhookVerificationError(error) ? error.code : 'unexpected');
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

const alert = createSampleAlert();
const body = JSON.stringify(alert);
const headers = { 'content-type': 'application/json', ...signWebhookSync({ body, secret }) };
const genuine = await fetch(url, { method: 'POST', headers, body });
assert.equal(genuine.status, 200);
assert.equal(await genuine.text(), alert.id);
const tampered = await fetch(url, { method: 'POST', headers, body: body.replace('}', ',"x":1}') });
assert.equal(tampered.status, 400);
assert.equal(await tampered.text(), 'signature_mismatch');
server.close();
console.log(`webhooks: verified ${alert.id}, refused a tampered body`);
