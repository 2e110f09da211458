// Without msw installed, the installed @cspwatch/mock-server/msw says to install it, as a typed
// MockServerError from both its ESM and its CommonJS build.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { isMockServerError } from '@cspwatch/mock-server';

const expected = (error) =>
  isMockServerError(error) && error.code === 'missing_peer' && /install .*msw/.test(error.message);
await assert.rejects(import('@cspwatch/mock-server/msw'), expected);
assert.throws(() => createRequire(import.meta.url)('@cspwatch/mock-server/msw'), expected);
console.log('mock-server: /msw without msw says to install msw');
