/**
 * Runs the browser smoke bundle in headless Chromium (Debian's /usr/bin/chromium, driven by
 * playwright-core: no browser download): node chromium-host.mjs <browser.js> <config json>
 * The page is served from 127.0.0.1 (a secure context, so Web Crypto is available).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';

const [scriptPath, rawConfig] = process.argv.slice(2);
const script = readFileSync(scriptPath, 'utf8');

const server = createServer((request, response) => {
  if (request.url === '/smoke.js') {
    response.writeHead(200, { 'content-type': 'text/javascript' });
    response.end(script);
    return;
  }
  response.writeHead(200, { 'content-type': 'text/html' });
  response.end('<!doctype html><meta charset="utf-8"><script src="/smoke.js"></script>');
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const browser = await chromium.launch(chromiumLaunchOptions({ timeout: 60_000 }));
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  if (errors.length > 0) throw new Error(`page error: ${errors[0]}`);
  const checks = await page.evaluate(
    (config) => globalThis.cspwatchSmoke(config),
    JSON.parse(rawConfig),
  );
  console.log(
    `SMOKE_RESULT ${JSON.stringify({ version: `chromium ${browser.version()}`, checks })}`,
  );
} finally {
  await browser.close();
  server.close();
}
