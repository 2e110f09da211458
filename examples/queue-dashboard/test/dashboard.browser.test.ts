/**
 * The delivery queue in bull-board, in Debian's headless chromium: a real redis-server, a
 * queue of two shards, a worker that failed some deliveries (retries waiting) and alerts not
 * yet taken. The page must list our queue's jobs, every shard, with their attempts.
 */
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MockServer, startMockServer } from '@cspwatch/mock-server';
import { createDeliveryQueue, createDeliveryWorker } from '@cspwatch/redis/queue';
import type { DeliveryChannel } from '@cspwatch/webhook-sender';
import { Redis } from 'ioredis';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleAlert } from '../../../packages/redis/test/helpers/alerts';
import {
  type RedisServerHandle,
  startRedisServer,
} from '../../../packages/redis/test/helpers/redis-server';
import { waitFor } from '../../../packages/redis/test/helpers/wait-for';
import { CHROMIUM_PATH, chromiumLaunchOptions, hasChromium } from '../../../scripts/chromium.mjs';
import { budget } from '../../../test-budget';
import { createDashboard, type Dashboard } from '../src/dashboard';

const here = dirname(fileURLToPath(import.meta.url));
/** Git-ignored (`.cache/`); CI keeps it as an artifact. */
const ARTIFACT = join(here, '..', '..', '..', '.cache', 'artifacts', 'queue-dashboard.png');
/** Set UPDATE_DOCS_SCREENSHOT=1 to refresh the guide's screenshot. */
const DOCS_SCREENSHOT = join(here, '..', 'docs', 'bull-board.png');
const SECRET = 'whsec_dashboard-test-secret-0123';

const chromiumInstalled = hasChromium();
if (!chromiumInstalled) {
  console.warn(`queue dashboard browser test skipped: ${CHROMIUM_PATH} is missing.`);
}

describe.skipIf(!chromiumInstalled)('the delivery queue in bull-board', () => {
  let redisServer: RedisServerHandle;
  let mock: MockServer;
  let browser: Browser;
  let redis: Redis;
  let dashboard: Dashboard;
  let baseUrl: string;
  let refusingId: string;
  const close: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    [redisServer, mock, browser] = await Promise.all([
      startRedisServer(),
      startMockServer(),
      chromium.launch(chromiumLaunchOptions()),
    ]);
    redis = new Redis(redisServer.url, { maxRetriesPerRequest: null });
    const options = { connection: redisServer.url, shards: 2 };
    const queue = createDeliveryQueue({ ...options, attemptDelaysMs: [0, 600_000] });
    close.push(() => queue.close());

    const refusing = mock.service.inbox.createChannel({
      secret: SECRET,
      response: { status: 503 },
    });
    refusingId = refusing.id;
    const channels = new Map<string, DeliveryChannel>([
      [refusing.id, { id: refusing.id, url: refusing.url, secret: SECRET }],
    ]);
    const worker = createDeliveryWorker({
      ...options,
      channels: (id) => channels.get(id),
      sender: { dangerouslyAllowLoopback: true },
    });
    for (let index = 0; index < 3; index++) await queue.enqueue(refusing.id, sampleAlert());
    // Each failed first attempt leaves its job delayed until a retry ten minutes away.
    await waitFor('three failed attempts', async () => (await queue.getCounts()).delayed === 3);
    await worker.close();

    // Alerts for channels no worker is serving now: waiting, on both shards.
    for (let index = 0; index < 12; index++) await queue.enqueue(`ch_site${index}`, sampleAlert());

    dashboard = createDashboard({ redis, queue: options });
    const server = dashboard.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    close.push(() => new Promise((resolve) => server.close(resolve)));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/queues`;
  }, budget(60_000));

  afterAll(async () => {
    for (const step of close.reverse()) await step();
    await dashboard?.close();
    redis?.disconnect();
    await browser?.close();
    await mock?.close();
    await redisServer?.stop();
  });

  it('lists every shard with its jobs, and a failed delivery with its attempts', {
    timeout: budget(60_000),
  }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(baseUrl);
      await expect.poll(() => page.getByText('cspwatch deliveries').count()).toBeGreaterThan(0);
      const body = () => page.locator('body').textContent();
      await expect.poll(body).toContain('shard 1 of 2');
      expect(await body()).toContain('shard 2 of 2');

      const waitingShard = await findShardWith(page, baseUrl, 'waiting');
      await page.goto(`${baseUrl}/queue/${encodeURIComponent(waitingShard)}?status=waiting`);
      await expect.poll(() => page.getByText(/"ch_site\d+"/).count()).toBeGreaterThan(0);

      // The refused deliveries wait for their retry, each with its run time.
      const delayedShard = await findShardWith(page, baseUrl, 'delayed');
      await page.goto(`${baseUrl}/queue/${encodeURIComponent(delayedShard)}?status=delayed`);
      await expect.poll(() => page.getByText(`"${refusingId}"`).count()).toBe(3);
      expect(await page.getByText('Will run at').count()).toBe(3);

      mkdirSync(dirname(ARTIFACT), { recursive: true });
      await page.screenshot({ path: ARTIFACT });
      if (process.env.UPDATE_DOCS_SCREENSHOT === '1') {
        mkdirSync(dirname(DOCS_SCREENSHOT), { recursive: true });
        await page.screenshot({ path: DOCS_SCREENSHOT });
      }
    } finally {
      await page.close();
    }
  });
});

/** The bull-board name of the shard holding jobs in `status`, read from its JSON API. */
async function findShardWith(
  page: import('playwright-core').Page,
  baseUrl: string,
  status: string,
): Promise<string> {
  const response = await page.request.get(
    `${baseUrl}/api/queues?activeQueue=&status=${status}&page=1`,
  );
  const { queues } = (await response.json()) as {
    queues: { name: string; counts: Record<string, number> }[];
  };
  const found = queues.find((queue) => (queue.counts[status] ?? 0) > 0);
  if (!found) throw new Error(`no shard has ${status} jobs: ${JSON.stringify(queues)}`);
  return found.name;
}
