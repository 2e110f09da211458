/**
 * The inbox page in a real browser: Debian's headless chromium driven by playwright-core
 * (no browser download). Deliveries are posted while the page is open; the page must show
 * them, newest first, one line each, without a reload, and must never run what a payload
 * carries.
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
import { startVerifyingReceiver } from './receiver';
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
    'lists every delivery on one line, live, with counts per verdict, payload on demand, external triggers and a Clear button; escapes everything',
    async () => {
      const secret = 'whsec-page-0123456789';
      const created = await fetch(`${server.url}/_mock/inbox/channels`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ secret, response: { status: 202 } }),
      });
      const channel = await created.json();
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      await page.goto(`${server.url}/_mock/`);
      await expect.poll(() => page.locator(`#channel-${channel.id}`).count()).toBe(1);
      expect(await page.locator('.delivery').count()).toBe(0);
      const rows = page.locator('#deliveries .delivery');

      // Deliveries arrive while the page is open: accepted (one with markup in its payload),
      // tampered, stale, unsigned (with a hostile header), and a replay.
      const xss = '<img src=x onerror="window.__xss=1"></pre><script>window.__xss=2</script>';
      const post = async (init: RequestInit) => (await fetch(channel.url, init)).status;
      const statuses: number[] = [];
      for (let index = 0; index < 4; index++)
        statuses.push(await post(await signedPost({ secret })));
      const marked = await signedPost({
        secret,
        payload: JSON.stringify({ ...createSampleAlert(), rule: xss }),
      });
      statuses.push(await post(marked));
      statuses.push(await post(marked)); // the same signed request again: a replay
      const tampered = await signedPost({ secret });
      statuses.push(await post({ ...tampered, body: tampered.body.replace('"id"', '"id" ') }));
      statuses.push(await post(await signedPost({ secret: 'whsec-someone-else-1' })));
      statuses.push(await post(await signedPost({ secret, timestamp: Date.now() - 600_000 })));
      statuses.push(
        await post({
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-evil': '"><svg onload="window.__xss=3">',
          },
          body: JSON.stringify({ hello: '<b>bold</b>' }),
        }),
      );
      expect(statuses).toEqual([202, 202, 202, 202, 202, 409, 400, 400, 400, 400]);
      // One trigger to this inbox (a delivery like the others), one to an external receiver.
      const trigger = (to: string, triggerSecret: string) =>
        fetch(`${server.url}/_mock/trigger`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ to, secret: triggerSecret }),
        });
      expect((await trigger(channel.url, secret)).status).toBe(200);
      const receiver = await startVerifyingReceiver('whsec-external-0123');
      try {
        expect(
          (await trigger(`${receiver.url}?auth=query-secret-42`, 'whsec-external-0123')).status,
        ).toBe(200);
        expect(receiver.deliveries).toHaveLength(1);
      } finally {
        await receiver.close();
      }

      // Live refresh, no reload: 11 deliveries, newest first, and the external trigger.
      await expect.poll(() => rows.count(), { timeout: budget(10_000) }).toBe(11);
      await expect
        .poll(() => page.locator('#triggers .trigger').count(), { timeout: budget(10_000) })
        .toBe(1);
      expect(await page.locator('#deliveries .verdict').allTextContents()).toEqual([
        'accepted',
        'refused: missing_header',
        'refused: timestamp_too_old',
        'refused: signature_mismatch',
        'refused: signature_mismatch',
        'replay',
        'accepted',
        'accepted',
        'accepted',
        'accepted',
        'accepted',
      ]);
      expect(await page.locator('#deliveries .status').allTextContents()).toEqual([
        '202',
        '400',
        '400',
        '400',
        '400',
        '409',
        '202',
        '202',
        '202',
        '202',
        '202',
      ]);
      const count = (name: string) => page.locator(`[data-count="${name}"] strong`).textContent();
      expect([
        await count('total'),
        await count('accepted'),
        await count('refused'),
        await count('replay'),
      ]).toEqual(['11', '6', '4', '1']);
      expect(await page.locator('[data-reason]').allTextContents()).toEqual([
        'signature_mismatch 2',
        'missing_header 1',
        'timestamp_too_old 1',
      ]);
      const external = await page.locator('#triggers .trigger').textContent();
      expect(external).toContain(`${receiver.url}?auth=`);
      expect(external).not.toContain('query-secret-42');
      expect(external).toContain('accepted');
      expect(external).toContain('200');
      expect(await page.locator('#channels .explain').allTextContents()).toEqual([
        expect.stringContaining('ch_… inbox channels are receivers inside this mock'),
        expect.stringContaining('wh_… webhook channels belong to the mock cspwatch service'),
      ]);
      expect((await page.locator('.top, #app').allTextContents()).join(' ')).not.toMatch(
        /revision/i,
      );

      // One line per delivery: all 11 fit the 1280×900 window without scrolling.
      const fullyVisible = () =>
        rows.evaluateAll(
          (nodes) =>
            nodes.filter((node) => {
              const box = node.getBoundingClientRect();
              return box.top >= 0 && box.bottom <= window.innerHeight;
            }).length,
        );
      expect(await fullyVisible()).toBe(11);
      expect(await page.locator('#deliveries .payload').first().isVisible()).toBe(false);

      // The payload and headers on demand; markup in them is text; an open line stays open
      // across a refresh.
      const markedRow = rows.nth(5);
      await markedRow.locator('summary').click();
      const payload = markedRow.locator('.payload');
      await expect.poll(() => payload.isVisible()).toBe(true);
      expect(await payload.textContent()).toContain(`"rule": ${JSON.stringify(xss)}`);
      expect(await markedRow.locator('.what').textContent()).toContain(xss);
      expect(await markedRow.locator('.headers').textContent()).toContain('x-cspwatch-signature');
      const unsigned = rows.nth(1);
      await unsigned.locator('summary').click();
      expect(await unsigned.locator('.headers').textContent()).toContain(
        '"><svg onload="window.__xss=3">',
      );
      expect(await unsigned.locator('.payload').textContent()).toContain('"hello": "<b>bold</b>"');
      await rows.nth(5).locator('summary').click(); // close the long one again
      expect(await page.locator('#app img, #app script, #app svg, #app b').count()).toBe(0);
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
      expect(await fullyVisible()).toBeGreaterThanOrEqual(10);

      mkdirSync(dirname(ARTIFACT), { recursive: true });
      await page.screenshot({ path: ARTIFACT });
      if (process.env.UPDATE_DOCS_SCREENSHOT === '1')
        await page.screenshot({ path: DOCS_SCREENSHOT });

      await post(await signedPost({ secret }));
      await expect.poll(() => rows.count(), { timeout: budget(10_000) }).toBe(12);
      expect(await page.locator('#deliveries details[open]').count()).toBe(1);
      expect(await rows.nth(2).getAttribute('open')).not.toBeNull();

      // Clear empties the list, the counts and the triggers; the channel stays.
      await page.locator('#clear').click();
      await expect.poll(() => rows.count(), { timeout: budget(10_000) }).toBe(0);
      expect(await count('total')).toBe('0');
      expect(await page.locator('#triggers .trigger').count()).toBe(0);
      expect(await page.locator(`#channel-${channel.id}`).count()).toBe(1);
      expect(server.service.inbox.deliveries(channel.id)).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    },
    budget(60_000),
  );

  it(
    'reads without JavaScript: the list is rendered on the server, the Clear button stays hidden',
    async () => {
      const channel = server.service.inbox.createChannel({ secret: 'whsec-nojs-0123456' });
      await fetch(channel.url, await signedPost({ secret: 'whsec-nojs-0123456' }));
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${server.url}/_mock/`);
      expect(await page.locator('#deliveries .delivery').count()).toBeGreaterThanOrEqual(1);
      expect(await page.locator('#clear').isVisible()).toBe(false);
      await page.locator('#deliveries .delivery summary').first().click();
      expect(await page.locator('#deliveries .payload').first().isVisible()).toBe(true);
      await context.close();
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
            timeout: budget(10_000),
          })
          .toEqual(['accepted']);
        await page.close();
      } finally {
        await guarded.close();
      }
    },
    budget(30_000),
  );
});
