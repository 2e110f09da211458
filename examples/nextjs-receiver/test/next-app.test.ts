/**
 * Builds the app with `next build`, starts it with `next start` on a free loopback port and
 * posts real deliveries to the route handler. Next bundles `@cspwatch/webhooks` from its
 * built `dist/`, so run `pnpm build` (or `pnpm --filter @cspwatch/webhooks build`) first.
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
// vitest sets NODE_ENV=test; next build and next start expect production.
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' as const };

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

async function waitUntilReady(
  url: string,
  output: () => string,
  child: ChildProcess,
): Promise<void> {
  const deadline = Date.now() + budget(60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited early:\n${output()}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`next start did not answer within 60 s:\n${output()}`);
}

describe.skipIf(!built)(
  'Next.js receiver, App and Pages Router (one next build + next start)',
  () => {
    let server: ChildProcess | undefined;
    let serverOutput: () => string = () => '';
    let endpoint = '';
    let pagesEndpoint = '';

    beforeAll(async () => {
      const build = run(['build']);
      const buildOutput = collect(build);
      const code = await new Promise<number | null>((resolve) => build.once('exit', resolve));
      if (code !== 0) throw new Error(`next build failed (exit ${code}):\n${buildOutput()}`);

      const port = await freePort();
      server = run(['start', '-p', String(port), '-H', '127.0.0.1'], {
        CSPWATCH_WEBHOOK_SECRET: secret,
        CSPWATCH_WEBHOOK_PREVIOUS_SECRET: previousSecret,
      });
      serverOutput = collect(server);
      endpoint = `http://127.0.0.1:${port}/api/cspwatch`;
      pagesEndpoint = `http://127.0.0.1:${port}/api/cspwatch-pages`;
      await waitUntilReady(`http://127.0.0.1:${port}/`, serverOutput, server);
    }, budget(300_000));

    afterAll(async () => {
      if (!server?.pid || server.exitCode !== null) return;
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      process.kill(-server.pid, 'SIGTERM');
      await exited;
    });

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
    });
  },
);
