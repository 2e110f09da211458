/**
 * Entry of the smoke suite for runtimes that run `@cspwatch/webhooks` only (Node 18: the
 * package claims Node >= 18 while the rest of the SDK needs Node 20): the webhooks checks
 * plus the Node-only sync entry, printed as one `SMOKE_RESULT <json>` line.
 */
import { runNodeEntryCheck } from './node-entry.js';
import { runWebhooksSmoke, type SmokeConfig } from './suite.js';

const config = JSON.parse(process.argv[2] ?? 'null') as SmokeConfig;
const checks = await runWebhooksSmoke(config);
checks.push(await runNodeEntryCheck(config));
const entry = import.meta.resolve('@cspwatch/webhooks').replace(/^.*\/packages\/webhooks\//, '');
console.log(
  `SMOKE_RESULT ${JSON.stringify({ version: `node ${process.version}`, entry, checks })}`,
);
