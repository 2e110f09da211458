/**
 * Builds the app with `next build` **with no secret in the environment** (route modules are
 * loaded by the build: a secret read when a module loads would fail it), then starts it with
 * `next start` on free loopback ports, once with the secret set and once without, and posts
 * real deliveries to both routes. Next bundles `@cspwatch/webhooks` from its built `dist/`,
 * so run `pnpm build` (or `pnpm --filter @cspwatch/webhooks build`) first.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSignedDelivery } from '@cspwatch/webhooks/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const webhooksDist = join(appDir, '../../packages/webhooks/dist/next.js');
const nextBin = createRequire(join(appDir, 'package.json')).resolve('next/dist/bin/next');
const secret = 'whsec_nextjs_receiver_test';
const previousSecret = 'whsec_nextjs_receiver_old';
const {
  CSPWATCH_WEBHOOK_SECRET: _secret,
  CSPWATCH_WEBHOOK_PREVIOUS_SECRET: _previous,
  ...withoutSecrets
} = process.env;
// No secret; no telemetry; vitest sets NODE_ENV=test, and next build and next start expect production.
const env = { ...withoutSecrets, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' as const };
// next build takes minutes on a busy 2-core machine: generous, and scaled for where tests run.
const BUILD_TIMEOUT_MS = budget(600_000);
const START_TIMEOUT_MS = budget(120_000);

const built = existsSync(webhooksDist);
if (!built) {
  console.warn(
    `Skipping the Next.js receiver test: ${webhooksDist} is missing. Run \`pnpm build\` first; ` +
      'next build bundles @cspwatch/webhooks from its dist/.',
  );
}

function run(args: string[], extraEnv: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [nextBin, ...args], {
    cwd: appDir,
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
}

function collect(child: ChildProcess): () => string {
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return () => output;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A running `next start`: its base URL, everything it printed, and how to stop it. */
interface StartedApp {
  base: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts the built app and resolves once it prints that it is ready (or rejects if it exits). */
async function start(extraEnv: Record<string, string> = {}): Promise<StartedApp> {
  const port = await freePort();
  const child = run(['start', '-p', String(port), '-H', '127.0.0.1'], extraEnv);
  const output = collect(child);
  await new Promise<void>((resolve, reject) => {
    const onData = () => {
      if (/\bReady in\b/.test(output())) resolve();
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`next start exited (${code}):\n${output()}`)));
  });
  const stop = async () => {
    if (!child.pid || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  };
  return { base: `http://127.0.0.1:${port}`, output, stop };
}

describe.skipIf(!built)('Next.js receiver, App and Pages Router (one next build)', () => {
  let build: { code: number | null; output: string; seconds: number };

  beforeAll(async () => {
    const started = performance.now();
    const child = run(['build']);
    const output = collect(child);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    build = { code, output: output(), seconds: (performance.now() - started) / 1000 };
    console.info(`next build took ${build.seconds.toFixed(0)} s`);
    if (code !== 0) throw new Error(`next build failed (exit ${code}):\n${build.output}`);
  }, BUILD_TIMEOUT_MS);

  it('next build succeeds with no secret set, downloading nothing', () => {
    expect(env).not.toHaveProperty('CSPWATCH_WEBHOOK_SECRET');
    expect(build.code).toBe(0);
    // Both routes were compiled and their modules loaded ("Collecting page data").
    expect(build.output).toMatch(/\/api\/cspwatch\b/);
    expect(build.output).toMatch(/\/api\/cspwatch-pages\b/);
    // Telemetry is off and SWC is the native binary from npm: nothing fetched.
    expect(build.output).not.toMatch(/download|telemetry/i);
  });

  describe('started without the secret', () => {
    let app: StartedApp;
    beforeAll(async () => {
      app = await start();
    }, START_TIMEOUT_MS);
    afterAll(() => app?.stop());

    it.each([
      ['App Router', '/api/cspwatch'],
      ['Pages Router', '/api/cspwatch-pages'],
    ])('%s answers a delivery with 500, never a 400 the sender would count', async (_, path) => {
      const { body, headers } = await createSignedDelivery({ secret });
      const response = await fetch(`${app.base}${path}`, { method: 'POST', body, headers });
      expect(response.status).toBe(500);
      await expect.poll(app.output).toMatch(/missing: an unset environment variable/);
    });

    it('the Pages Router route says why in its problem body', async () => {
      const { body, headers } = await createSignedDelivery({ secret });
      const response = await fetch(`${app.base}/api/cspwatch-pages`, {
        method: 'POST',
        body,
        headers,
      });
      expect(await response.json()).toMatchObject({ status: 500, code: 'invalid_secret' });
    });
  });

  describe('started with the secret set at run time', () => {
    let app: StartedApp;
    let endpoint = '';
    let pagesEndpoint = '';
    let serverOutput: () => string = () => '';

    beforeAll(async () => {
      app = await start({
        CSPWATCH_WEBHOOK_SECRET: secret,
        CSPWATCH_WEBHOOK_PREVIOUS_SECRET: previousSecret,
      });
      endpoint = `${app.base}/api/cspwatch`;
      pagesEndpoint = `${app.base}/api/cspwatch-pages`;
      serverOutput = app.output;
    }, START_TIMEOUT_MS);
    afterAll(() => app?.stop());

    const post = (body: string, headers: Record<string, string>) =>
      fetch(endpoint, { method: 'POST', body, headers });

    it('answers 200 to a valid delivery and logs the alert', async () => {
      const { body, headers } = await createSignedDelivery({ secret });
      const response = await post(body, headers);
      expect(response.status).toBe(200);
      const { id } = JSON.parse(body) as { id: string };
      expect(await response.json()).toEqual({ received: id });
      await expect.poll(serverOutput).toContain(`alert ${id} csp-violation:new-type`);
    });

    it('accepts the previous secret while rotating', async () => {
      const { body, headers } = await createSignedDelivery({ secret: previousSecret });
      expect((await post(body, headers)).status).toBe(200);
    });

    it.each([
      [
        'tampered',
        async () => {
          const { body, headers } = await createSignedDelivery({ secret });
          return { body: body.replace('"count":1', '"count":9'), headers };
        },
        'signature_mismatch',
      ],
      [
        'stale',
        () => createSignedDelivery({ secret, timestamp: Date.now() - 600_000 }),
        'timestamp_too_old',
      ],
      [
        'signed with another secret',
        () => createSignedDelivery({ secret: 'whsec_not_ours_1' }),
        'signature_mismatch',
      ],
      [
        'unsigned',
        async () => ({ body: '{}', headers: { 'content-type': 'application/json' } }),
        'missing_header',
      ],
    ])('answers 400 to a %s delivery', async (_name, make, code) => {
      const { body, headers } = await make();
      const response = await post(body, headers);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(await response.json()).toMatchObject({ status: 400, code });
    });

    it('refuses a replayed delivery with 409 (App Router, replay: true)', async () => {
      const { body, headers } = await createSignedDelivery({ secret });
      expect((await post(body, headers)).status).toBe(200);
      const replay = await post(body, headers);
      expect(replay.status).toBe(409);
      expect(await replay.json()).toMatchObject({ status: 409, code: 'replayed_delivery' });
    });

    describe('Pages Router route (pages/api/cspwatch-pages.ts, bodyParser: false)', () => {
      const postPages = (body: string, headers: Record<string, string>) =>
        fetch(pagesEndpoint, { method: 'POST', body, headers });

      it('answers 200 to a valid delivery, verified from the raw stream', async () => {
        const { body, headers } = await createSignedDelivery({ secret });
        const response = await postPages(body, headers);
        expect(response.status).toBe(200);
        const { id } = JSON.parse(body) as { id: string };
        expect(await response.json()).toEqual({ received: id });
        await expect.poll(serverOutput).toContain(`alert ${id} csp-violation:new-type`);
      });

      it('answers 400 problem+json to a tampered delivery', async () => {
        const { body, headers } = await createSignedDelivery({ secret });
        const response = await postPages(body.replace('"count":1', '"count":9'), headers);
        expect(response.status).toBe(400);
        expect(response.headers.get('content-type')).toContain('application/problem+json');
        expect(await response.json()).toMatchObject({ code: 'signature_mismatch' });
      });

      it('answers 409 to a replay of an accepted delivery', async () => {
        const { body, headers } = await createSignedDelivery({ secret });
        expect((await postPages(body, headers)).status).toBe(200);
        expect(await (await postPages(body, headers)).json()).toMatchObject({
          code: 'replayed_delivery',
        });
      });

      it('answers 405 to a GET', async () => {
        const response = await fetch(pagesEndpoint);
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe('POST');
      });
    });

    it('never prints the secret', () => {
      expect(serverOutput()).not.toContain(secret);
      expect(serverOutput()).not.toContain(previousSecret);
    });
  });
});
