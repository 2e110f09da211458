/**
 * The five-minute pages' code runs as written, not only type-checks: each block is written to
 * a module of its own, imported, and driven the way its platform drives it (a Next.js route's
 * `POST`, a Worker's `fetch`, a script against the mock service, a vitest suite).
 * The Express and Fastify blocks listen on port 3000, so they are type-checked only; the same
 * adapters run in real apps in examples/express-receiver and the webhooks package's tests.
 * The sender fleet's producer and re-enable scripts run as processes of their own against a
 * real redis-server (the packages' built dist, as a user runs them) and must exit by themselves.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { type MockServer, startMockServer } from '@cspwatch/mock-server';
import { createSignedDelivery } from '@cspwatch/webhooks/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type RedisServerHandle,
  startRedisServer,
} from '../../../packages/redis/test/helpers/redis-server';
import { budget } from '../../../test-budget';
import { writePageBlock } from '../src/page-blocks';

const SECRET = 'five-minute-paths-secret';

/** A signed delivery as cspwatch sends it, or the same with one byte of the body changed. */
async function delivery(tampered = false): Promise<Request> {
  const { body, headers } = await createSignedDelivery({ secret: SECRET });
  return new Request('https://receiver.example/webhooks/cspwatch', {
    method: 'POST',
    headers,
    body: tampered ? body.replace('"id"', '"Id"') : body,
  });
}

describe('docs/receive-webhooks.md', () => {
  const previous = process.env.CSPWATCH_WEBHOOK_SECRET;
  beforeAll(() => {
    process.env.CSPWATCH_WEBHOOK_SECRET = SECRET;
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.CSPWATCH_WEBHOOK_SECRET;
    else process.env.CSPWATCH_WEBHOOK_SECRET = previous;
  });
  afterEach(() => vi.restoreAllMocks());

  it('the Next.js route answers 204 to a signed delivery and 400 to a tampered one', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const route = (await import(writePageBlock('receive-webhooks.md', 'Next.js'))) as {
      POST: (request: Request) => Promise<Response>;
    };
    expect((await route.POST(await delivery())).status).toBe(204);
    const refused = await route.POST(await delivery(true));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'signature_mismatch' });
  });

  it('the Worker answers 204 to a signed delivery and 400 to a tampered one', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const worker = (await import(writePageBlock('receive-webhooks.md', 'Cloudflare Workers'))) as {
      default: {
        fetch(request: Request, env: { CSPWATCH_WEBHOOK_SECRET: string }): Promise<Response>;
      };
    };
    const env = { CSPWATCH_WEBHOOK_SECRET: SECRET };
    expect((await worker.default.fetch(await delivery(), env)).status).toBe(204);
    expect(log).toHaveBeenCalledWith('csp-violation:new-type');
    const refused = await worker.default.fetch(await delivery(true), env);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'signature_mismatch' });
  });
});

describe('docs/call-the-api.md', () => {
  let mock: MockServer;
  const names = ['CSPWATCH_BASE_URL', 'CSPWATCH_TOKEN', 'CSPWATCH_WORKSPACE_ID'] as const;
  const previous = names.map((name) => process.env[name]);
  beforeAll(async () => {
    mock = await startMockServer();
    process.env.CSPWATCH_BASE_URL = mock.url;
    process.env.CSPWATCH_TOKEN = mock.tokens.admin;
    process.env.CSPWATCH_WORKSPACE_ID = mock.workspaceIds.main;
  });
  afterAll(async () => {
    names.forEach((name, index) => {
      const value = previous[index];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    });
    await mock.close();
  });
  afterEach(() => vi.restoreAllMocks());

  it('runs against the mock: lists keys and prints the new website endpoint', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    await import(writePageBlock('call-the-api.md', 'Call the API'));
    const lines = log.mock.calls.map((args) => args.join(' '));
    const endpoint = mock.service.store.snapshot().websites.at(-1)?.endpointUrl;
    expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/reports\//);
    expect(lines).toContain(`Reporting-Endpoints: csp-endpoint="${endpoint}"`);
  });

  it('takes its error branch when the plan has no room for another website', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    mock.service.store.setWebsiteLimit(mock.workspaceIds.main, 0);
    const path = writePageBlock('call-the-api.md', 'Call the API');
    const again = path.replace(/\.ts$/, '-limit.ts');
    copyFileSync(path, again); // a module of its own, so it runs again
    await import(again);
    expect(log).toHaveBeenCalledWith('Upgrade the plan to add a website.');
  });
});

/** Scripts still running: a test that failed on its time leaves no process behind. */
const running = new Set<ChildProcess>();

/** Runs a module with tsx in a process of its own; resolves when that process exits. */
function runScript(path: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', path], {
    env: { ...process.env, ...env },
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

describe('docs/run-a-sender-fleet.md', () => {
  let redis: RedisServerHandle;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterEach(() => {
    for (const child of running) child.kill('SIGKILL');
  });
  afterAll(async () => {
    await redis?.stop();
  });

  // A script that leaves its queue open never exits: these would then fail on the test's time.
  it('the producer enqueues its alert and exits', { timeout: budget(60_000) }, async () => {
    const producer = writePageBlock('run-a-sender-fleet.md', 'Run a sender fleet');
    const { code, output } = await runScript(producer, { REDIS_URL: redis.url });
    expect(code, output).toBe(0);
  });

  it('the re-enable script prints the history and what it released, and exits', {
    timeout: budget(60_000),
  }, async () => {
    const script = writePageBlock('run-a-sender-fleet.md', 'Run a sender fleet', 2);
    const { code, output } = await runScript(script, { REDIS_URL: redis.url });
    expect(code, output).toBe(0);
    expect(output).toMatch(/^released \d+ alerts$/m);
  });
});

// The page's vitest suite, registered here as written: its hooks and tests run in this file.
await import(writePageBlock('test-against-the-mock.md', 'JavaScript'));
