/**
 * Runs the edge smoke bundle inside `@edge-runtime/vm` (the runtime behind Vercel's edge
 * functions and Next.js middleware): node edge-host.mjs <edge.js> <config json>
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { EdgeVM } from '@edge-runtime/vm';

const [scriptPath, rawConfig] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const version = JSON.parse(
  readFileSync(require.resolve('@edge-runtime/vm/package.json'), 'utf8'),
).version;

const vm = new EdgeVM();
vm.evaluate(readFileSync(scriptPath, 'utf8'));
const checks = await vm.evaluate(`cspwatchSmoke(${rawConfig})`);
// Values made inside the VM belong to its realm; JSON round-trips them to plain host values.
const plain = JSON.parse(JSON.stringify(checks));
console.log(
  `SMOKE_RESULT ${JSON.stringify({ version: `@edge-runtime/vm ${version}`, checks: plain })}`,
);
