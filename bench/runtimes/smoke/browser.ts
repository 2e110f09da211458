/**
 * Entry of the smoke suite for a browser (headless Chromium): the Web build of
 * `@cspwatch/webhooks`, bundled with the `browser` condition, put on `globalThis` for the
 * host page to call. The API client is not run here (it is a server-side SDK).
 */
import { runWebhooksSmoke } from './suite.js';

(globalThis as { cspwatchSmoke?: typeof runWebhooksSmoke }).cspwatchSmoke = runWebhooksSmoke;
