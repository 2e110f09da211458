import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../../../scripts/chromium.mjs';
import { budget } from '../../../test-budget';

const directory = mkdtempSync(join(tmpdir(), 'cspwatch-reference-'));
const page = (name: string) => join(directory, name);
const build = (output: string) =>
  execFileSync(process.execPath, [
    join(import.meta.dirname, '../../../node_modules/tsx/dist/cli.mjs'),
    join(import.meta.dirname, '../scripts/reference-page.ts'),
    output,
  ]);

describe('the rendered API reference (docs/reference/api.html)', () => {
  beforeAll(() => {
    build(page('a.html'));
    build(page('b.html'));
  }, budget(60_000));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('is reproducible byte for byte, with telemetry off and no CDN script', () => {
    const html = readFileSync(page('a.html'), 'utf8');
    expect(readFileSync(page('b.html'), 'utf8') === html).toBe(true);
    expect(html).toContain('"disableTelemetry":true');
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)="https?:/);
  });

  it(
    'renders every operation and the webhook in headless chromium with the network off',
    async () => {
      const browser = await chromium.launch(chromiumLaunchOptions());
      try {
        const context = await browser.newContext({ offline: true });
        const tab = await context.newPage();
        const outside: string[] = [];
        await tab.route('**/*', (route) => {
          const url = route.request().url();
          if (url.startsWith('file:') || url.startsWith('data:') || url.startsWith('blob:'))
            return route.continue();
          outside.push(`${route.request().resourceType()} ${url}`);
          return route.abort();
        });
        const errors: string[] = [];
        tab.on('pageerror', (error) => errors.push(error.message));
        await tab.goto(pathToFileURL(page('a.html')).href, { waitUntil: 'load' });
        await tab.waitForTimeout(1500);
        expect(await tab.locator('body').textContent()).toContain('cspwatch API');
        for (const [tag, operation] of [
          ['API keys', 'List API keys'],
          ['Websites', 'Create a website'],
          ['Alerts', 'Alert delivery'],
        ] as const) {
          await tab.getByText(tag, { exact: true }).first().click();
          await expect
            .poll(() => tab.locator('body').textContent(), { timeout: budget(10_000) })
            .toContain(operation);
        }
        // Only Redoc's "API docs by Redocly" badge image is asked for (it hides itself when
        // offline); no script, style or font comes from outside the file.
        expect(
          outside.filter((request) => !request.startsWith('image https://cdn.redoc.ly/')),
        ).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    budget(60_000),
  );
});
