// The installed @cspwatch/client lists the API keys of the mock server the test started.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { createCspwatchClient } from '@cspwatch/client';

const cjs = createRequire(import.meta.url)('@cspwatch/client');
assert.equal(typeof cjs.createCspwatchClient, 'function', 'require("@cspwatch/client") works');
const {
  CSPWATCH_BASE_URL: baseUrl,
  CSPWATCH_TOKEN: token,
  WORKSPACE_ID: workspaceId,
} = process.env;
const client = createCspwatchClient({ baseUrl, token });
const keys = await client.apiKeys.list(workspaceId).toArray();
assert.equal(keys.length, Number(process.env.EXPECTED_KEYS));
console.log(`client: listed ${keys.length} keys`);
