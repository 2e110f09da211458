/**
 * Runs the workerd smoke bundle in a real workerd process through miniflare's Node API.
 * Started by run.mjs with Node >= 22 (miniflare 4 needs it):
 *   node workerd-host.mjs <miniflare install dir> <worker.mjs> <config json>
 * No `nodejs_compat` flag is set, so the bundle gets the plain Workers runtime.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [installDir, scriptPath, rawConfig] = process.argv.slice(2);
const require = createRequire(join(installDir, 'package.json'));
const { Miniflare } = await import(pathToFileURL(require.resolve('miniflare')).href);
const workerdVersion = JSON.parse(
  readFileSync(require.resolve('workerd/package.json'), 'utf8'),
).version;

const miniflare = new Miniflare({
  modules: true,
  script: readFileSync(scriptPath, 'utf8'),
  compatibilityDate: '2025-01-01',
});
try {
  const response = await miniflare.dispatchFetch('http://smoke.local/', {
    method: 'POST',
    body: rawConfig,
    headers: { 'content-type': 'application/json' },
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`worker answered ${response.status}: ${text.slice(0, 300)}`);
  const { checks } = JSON.parse(text);
  console.log(`SMOKE_RESULT ${JSON.stringify({ version: `workerd ${workerdVersion}`, checks })}`);
} finally {
  await miniflare.dispose();
}
