/**
 * The inbox page in a real browser: Debian's headless chromium driven by playwright-core
 * (no browser download). Deliveries are posted while the page is open; the page must show
 * them, newest first, without a reload, and must never run what a payload carries.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSampleAlert } from '@cspwatch/webhooks/testing';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, chromiumLaunchOptions, hasChromium } from '../../../scripts/chromium.mjs';
import { budget } from '../../../test-budget';
import { type MockServer, startMockServer } from '../src/index';
import { signedPost } from './signed-post';

const here = dirname(fileURLToPath(import.meta.url));
/** Git-ignored (`.cache/`); CI keeps it as an artifact. */
const ARTIFACT = join(here, '..', '..', '..', '.cache', 'artifacts', 'mock-server-inbox-page.png');
/** Set UPDATE_DOCS_SCREENSHOT=1 to refresh the README's screenshot. */
const DOCS_SCREENSHOT = join(here, '..', 'docs', 'inbox-page.png');

const chromiumInstalled = hasChromium();
if (!chromiumInstalled) {
  console.warn(
    `inbox page browser test skipped: ${CHROMIUM_PATH} is missing (apt-get install chromium).`,
  );
}

describe.skipIf(!chromiumInstalled)('inbox page in headless chromium', () => {
  let browser: Browser;
  let server: MockServer;
  beforeAll(async () => {
    browser = await chromium.launch(chromiumLaunchOptions());
    server = await startMockServer({ apiKeyCount: 1 });
  }, budget(30_000));
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it(
    'shows channels and deliveries live, newest first, with verdict, headers, payload and answer; escapes everything',
    async () => {
      const secret = 'whsec-page-0123456789';
      const created = await fetch(`${server.url}/_mock/inbox/channels`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ secret, response: { status: 202 } }),
      });
      const channel = await created.json();
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      await page.goto(`${server.url}/_mock/`);
      await expect.poll(() => page.locator(`#channel-${channel.id}`).count()).toBe(1);
      expect(await page.locator('.delivery').count()).toBe(0);

      // A verified delivery whose payload carries markup, then an unsigned one with a hostile header.
      const xss = '<img src=x onerror="window.__xss=1"></pre><script>window.__xss=2</script>';
      const payload = { ...createSampleAlert(), rule: xss };
      const signed = await signedPost({ secret, payload: JSON.stringify(payload) });
      expect((await fetch(channel.url, signed)).status).toBe(202);
      const forged = await fetch(channel.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-evil': '"><svg onload="window.__xss=3">',
        },
        body: JSON.stringify({ hello: '<b>bold</b>' }),
      });
      expect(forged.status).toBe(401);

      // Live refresh: no reload.
      await expect.poll(() => page.locator('.delivery').count(), { timeout: budget(5000) }).toBe(2);
      const verdicts = await page.locator('.delivery .verdict').allTextContents();
      expect(verdicts).toEqual(['failed: missing_header', 'verified']);
      const answers = await page.locator('.delivery .answer').allTextContents();
      expect(answers).toEqual(['answered 401', 'answered 202']);
      const payloads = await page.locator('.delivery .payload').allTextContents();
      expect(payloads[1]).toContain(`"rule": ${JSON.stringify(xss)}`);
      expect(payloads[1]).toContain('\n  "eventType": "csp-violation:new-type"');
      expect(payloads[0]).toContain('"hello": "<b>bold</b>"');
      const headerText = await page.locator('.delivery').first().locator('.headers').textContent();
      expect(headerText).toContain('"><svg onload="window.__xss=3">');
      expect(headerText).toContain('content-type');
      expect(await page.locator('.delivery').nth(1).locator('.headers').textContent()).toContain(
        'x-cspwatch-signature',
      );

      // Nothing from the payloads became markup or ran.
      expect(await page.locator('#app img, #app script, #app svg, #app b').count()).toBe(0);
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
      expect(errors).toEqual([]);

      await page
        .locator('.delivery details')
        .first()
        .evaluate((node) => {
          (node as HTMLDetailsElement).open = true;
        });
      mkdirSync(dirname(ARTIFACT), { recursive: true });
      await page.screenshot({ path: ARTIFACT, fullPage: true });
      if (process.env.UPDATE_DOCS_SCREENSHOT === '1')
        await page.screenshot({ path: DOCS_SCREENSHOT });
      await page.close();
    },
    budget(30_000),
  );

  it(
    'the page follows a reset and shows the service webhook channels',
    async () => {
      const page = await browser.newPage();
      await page.goto(`${server.url}/_mock/`);
      await fetch(`${server.url}/_mock/reset`, { method: 'POST' });
      await expect.poll(() => page.locator('.channel').count(), { timeout: budget(5000) }).toBe(0);
      await fetch(`${server.url}/_mock/webhook-channels`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: '<i>Ops</i>',
          url: 'https://hooks.example.com/csp',
          secret: 'whsec-ops-0123456789',
        }),
      });
      await expect
        .poll(() => page.locator('#webhook-channels td').allTextContents(), {
          timeout: budget(5000),
        })
        .toContain('<i>Ops</i>');
      expect(await page.content()).not.toContain('whsec-ops-0123456789');
      await page.close();
    },
    budget(30_000),
  );

  it(
    'with a control token, the page opened with ?token= refreshes live too',
    async () => {
      const controlToken = 'ctl-browser-0123456789abcdef';
      const guarded = await startMockServer({ apiKeyCount: 1, controlToken });
      try {
        const page = await browser.newPage();
        await page.goto(`${guarded.url}/_mock/?token=${controlToken}`);
        const channel = guarded.service.inbox.createChannel({ secret: 'whsec-guarded-0123' });
        await fetch(channel.url, await signedPost({ secret: 'whsec-guarded-0123' }));
        await expect
          .poll(() => page.locator('.delivery .verdict').allTextContents(), {
            timeout: budget(5000),
          })
          .toEqual(['verified']);
        await page.close();
      } finally {
        await guarded.close();
      }
    },
    budget(30_000),
  );
});
