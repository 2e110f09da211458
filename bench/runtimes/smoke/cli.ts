/**
 * Entry of the smoke suite for runtimes that run a file (Node, Bun, Deno): reads the config
 * (JSON) from the first argument, runs the suite plus the Node-only sync entry, and prints one
 * line `SMOKE_RESULT <json>` for the host to parse.
 */
import { runNodeEntryCheck } from './node-entry.js';
import { runSmoke, type SmokeCheck, type SmokeConfig } from './suite.js';

interface RuntimeGlobals {
  Deno?: { version: { deno: string }; args: string[] };
  Bun?: { version: string };
  process?: { version: string; argv: string[] };
}

const globals = globalThis as RuntimeGlobals;

function runtimeVersion(): string {
  if (globals.Deno) return `deno ${globals.Deno.version.deno}`;
  if (globals.Bun) return `bun ${globals.Bun.version}`;
  return `node ${globals.process?.version ?? '?'}`;
}

const raw = globals.Deno ? globals.Deno.args[0] : globals.process?.argv[2];
const config = JSON.parse(raw ?? 'null') as SmokeConfig;
const checks: SmokeCheck[] = await runSmoke(config);
checks.push(await runNodeEntryCheck(config));
// Which file of @cspwatch/webhooks this runtime's resolver picked from the exports map.
const entry = import.meta.resolve('@cspwatch/webhooks').replace(/^.*\/packages\/webhooks\//, '');
console.log(`SMOKE_RESULT ${JSON.stringify({ version: runtimeVersion(), entry, checks })}`);
