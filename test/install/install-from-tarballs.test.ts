/**
 * Installs each public package alone from the tarballs `pnpm release` wrote to .release/, into a
 * fresh project outside the workspace, with npm and with pnpm, through the folder's own
 * install.mjs (the one command its README documents), and runs it: a receiver verifies a
 * signed delivery, the sender delivers, the client lists keys from the mock, the mock's CLI
 * starts (with npm via `npx -p` on the tarballs), the queue delivers through a real redis-server.
 * Each project also type-checks its imports the way a strict TypeScript project does, without
 * `skipLibCheck`: the shipped types may name only what that install brought.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../packages/mock-server/src/index.ts';
import {
  type RedisServerHandle,
  startRedisServer,
} from '../../packages/redis/test/helpers/redis-server.ts';
import {
  type PublicPackage,
  publicPackages,
  releaseDir,
  tarballName,
} from '../../scripts/release/public-packages.mjs';

const packages = new Map(publicPackages().map((entry) => [entry.manifest.name, entry]));
const scenarios = join(import.meta.dirname, 'scenarios');
const root = join(import.meta.dirname, '..', '..');

/** The environment of every install and scenario: no npm or pnpm settings of this workspace. */
const childEnv = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm|pnpm)_/i.test(name)),
  ),
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  npm_config_prefer_offline: 'true',
};

interface Finished {
  code: number | null;
  output: string;
}

function collect(child: ChildProcess): { output: () => string } {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return { output: () => output };
}

function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Finished> {
  const child = spawn(command, args, { cwd, env: { ...childEnv, ...env } });
  const { output } = collect(child);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output: output() }));
  });
}

/** Runs a long-lived command until its output matches `ready`, then hands back the match. */
async function startUntil(command: string, args: string[], cwd: string, ready: RegExp) {
  // Its own process group: npx and pnpm exec run the bin in a child of their own, and SIGTERM
  // has to reach that one too.
  const child = spawn(command, args, { cwd, env: childEnv, detached: true });
  const { output } = collect(child);
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const check = () => {
      const found = ready.exec(output());
      if (found) resolve(found);
    };
    child.stdout?.on('data', check);
    child.once('error', reject);
    child.once('close', (code) =>
      reject(new Error(`${command} ${args.join(' ')} exited (${code}):\n${output()}`)),
    );
  });
  return {
    match,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const closed = new Promise((resolve) => child.once('close', resolve));
      process.kill(-(child.pid as number), 'SIGTERM');
      await closed;
    },
  };
}

function tarballOf(name: string): string {
  const entry = packages.get(name) as PublicPackage;
  return join(releaseDir, tarballName(entry.manifest));
}

/** A package and, transitively, the @cspwatch packages it depends on. */
function withSiblings(name: string): string[] {
  const found = new Set([name]);
  for (const current of found) {
    const dependencies = (packages.get(current)?.manifest.dependencies ?? {}) as object;
    for (const dependency of Object.keys(dependencies)) {
      if (packages.has(dependency)) found.add(dependency);
    }
  }
  return [...found];
}

let projects: string[] = [];

/** A fresh project in the OS temp dir with a copy of .release/ as ./release. */
function newProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cspwatch-install-'));
  projects.push(dir);
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'install-test', private: true, type: 'module' }, null, 2)}\n`,
  );
  cpSync(releaseDir, join(dir, 'release'), { recursive: true });
  return dir;
}

async function install(pm: 'npm' | 'pnpm', names: string[]): Promise<string> {
  const dir = newProject();
  // A fresh project has no lockfile to freeze (pnpm freezes by default when CI is set).
  const env = pm === 'pnpm' ? { npm_config_frozen_lockfile: 'false' } : {};
  const result = await run('node', ['release/install.mjs', '--pm', pm, ...names], dir, env);
  expect(result.code, result.output).toBe(0);
  return dir;
}

async function runScenario(dir: string, file: string, env: Record<string, string> = {}) {
  copyFileSync(join(scenarios, file), join(dir, 'scenario.mjs'));
  const result = await run('node', ['scenario.mjs'], dir, env);
  expect(result.code, result.output).toBe(0);
  return result.output;
}

/**
 * Type-checks an import of each of `entries` in the project, strict and without `skipLibCheck`
 * (the defaults of `tsc --strict`), with Node's types: a shipped `.d.ts` that imports a package
 * the install did not bring (an optional peer loaded only when present) fails with TS2307.
 */
async function typecheckImports(dir: string, entries: string[]) {
  const lines = entries.map((entry, index) => `export type * as entry${index} from '${entry}';`);
  writeFileSync(join(dir, 'imports.ts'), `${lines.join('\n')}\n`);
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const types = ['--typeRoots', join(root, 'node_modules', '@types'), '--types', 'node'];
  const options = ['--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', ...types];
  const result = await run('node', [tsc, ...options, 'imports.ts'], dir);
  expect(result.code, result.output).toBe(0);
}

/** Starts the mock's CLI and lists two keys with the curl line its banner prints. */
async function checkMockCli(command: string, args: string[], cwd: string) {
  const cli = await startUntil(
    command,
    [...args, '--port', '0'],
    cwd,
    /curl -H 'Authorization: Bearer ([^']+)' '([^']+)'/,
  );
  try {
    const [, token, url] = cli.match;
    const response = await fetch(url as string, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: unknown[] }).data).toHaveLength(2);
  } finally {
    await cli.stop();
  }
}

let mock: MockServer;
let redis: RedisServerHandle;

beforeAll(async () => {
  const missing = [...packages.values()]
    .map(({ manifest }) => join(releaseDir, tarballName(manifest)))
    .filter((file) => !existsSync(file));
  if (missing.length > 0 || !existsSync(join(releaseDir, 'install.mjs'))) {
    throw new Error(
      `No tarballs of the current versions in .release/ (${missing.join(', ')}): run pnpm release first`,
    );
  }
  mock = await startMockServer();
  redis = await startRedisServer();
});

afterAll(async () => {
  await mock?.close();
  await redis?.stop();
});

afterEach(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
  projects = [];
});

describe.each(['npm', 'pnpm'] as const)('installed alone from .release/ with %s', (pm) => {
  it('@cspwatch/webhooks: a receiver verifies a signed delivery and refuses a tampered one', async () => {
    const dir = await install(pm, ['@cspwatch/webhooks']);
    expect(await runScenario(dir, 'webhooks.mjs')).toMatch(/webhooks: verified/);
    await typecheckImports(
      dir,
      ['', '/node', '/testing', '/express', '/next', '/fetch', '/fastify'].map(
        (subpath) => `@cspwatch/webhooks${subpath}`,
      ),
    );
  });

  it('@cspwatch/webhook-sender: delivers a signed alert (with @cspwatch/webhooks from the folder)', async () => {
    const dir = await install(pm, ['@cspwatch/webhook-sender']);
    expect(await runScenario(dir, 'webhook-sender.mjs')).toMatch(/webhook-sender: delivered/);
    await typecheckImports(dir, ['@cspwatch/webhook-sender']);
  });

  it('@cspwatch/client: lists the API keys of a mock server', async () => {
    const dir = await install(pm, ['@cspwatch/client']);
    const output = await runScenario(dir, 'client.mjs', {
      CSPWATCH_BASE_URL: mock.url,
      CSPWATCH_TOKEN: mock.tokens.admin,
      WORKSPACE_ID: mock.workspaceIds.main,
      EXPECTED_KEYS: String(
        mock.service.store
          .snapshot()
          .apiKeys.filter((key) => key.workspaceId === mock.workspaceIds.main).length,
      ),
    });
    expect(output).toMatch(/client: listed \d+ keys/);
    await typecheckImports(dir, ['@cspwatch/client']);
  });

  it('@cspwatch/mock-server: the CLI starts and serves the API; in the project without msw, /msw says to install it', async () => {
    if (pm === 'npm') {
      // No project: npx fetches the tarballs (the mock and its @cspwatch dependencies) itself.
      const dir = newProject();
      const tarballs = withSiblings('@cspwatch/mock-server').flatMap((name) => [
        '-p',
        tarballOf(name),
      ]);
      await checkMockCli('npx', ['--yes', ...tarballs, 'cspwatch-mock'], dir);
    } else {
      const dir = await install(pm, ['@cspwatch/mock-server']);
      await checkMockCli('pnpm', ['exec', 'cspwatch-mock'], dir);
      expect(await runScenario(dir, 'mock-server-msw.mjs')).toMatch(/says to install msw/);
      await typecheckImports(dir, ['@cspwatch/mock-server']);
    }
  });

  it('@cspwatch/redis: the queue delivers through a real redis-server', async () => {
    const peers = (packages.get('@cspwatch/redis')?.manifest.peerDependencies ?? {}) as Record<
      string,
      string
    >;
    // The names as docs/install.md gives them: install.mjs adds the peer ranges.
    const dir = await install(pm, [
      '@cspwatch/redis',
      '@cspwatch/webhook-sender',
      'ioredis',
      'bullmq',
    ]);
    const installed = (name: string): string =>
      JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
    const major = (version = '') => /\d+/.exec(version)?.[0];
    for (const name of ['ioredis', 'bullmq']) {
      expect(major(installed(name)), `${name} of the major @cspwatch/redis supports`).toBe(
        major(peers[name]),
      );
    }
    const output = await runScenario(dir, 'redis.mjs', { REDIS_URL: redis.url });
    expect(output).toMatch(/redis: the queue delivered/);
    await typecheckImports(dir, [
      '@cspwatch/redis',
      '@cspwatch/redis/queue',
      '@cspwatch/redis/health',
    ]);
  });
});

describe('installing into a project that has @cspwatch packages already (npm)', () => {
  it('a --dev install leaves a production sibling in dependencies; a production install moves a dev sibling up', async () => {
    const dir = await install('npm', ['@cspwatch/webhooks']);
    const sections = () => {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      return {
        dependencies: Object.keys(manifest.dependencies ?? {}).sort(),
        devDependencies: Object.keys(manifest.devDependencies ?? {}).sort(),
      };
    };
    const dev = await run('node', ['release/install.mjs', '--dev', '@cspwatch/mock-server'], dir);
    expect(dev.code, dev.output).toBe(0);
    expect(sections()).toEqual({
      dependencies: ['@cspwatch/webhooks'],
      devDependencies: ['@cspwatch/mock-server', '@cspwatch/webhook-sender'],
    });
    // A sibling saved for the mock, then wanted in production, moves to dependencies.
    const prod = await run('node', ['release/install.mjs', '@cspwatch/webhook-sender'], dir);
    expect(prod.code, prod.output).toBe(0);
    expect(sections()).toEqual({
      dependencies: ['@cspwatch/webhook-sender', '@cspwatch/webhooks'],
      devDependencies: ['@cspwatch/mock-server'],
    });
  });
});
