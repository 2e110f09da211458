/**
 * The runtime matrix (`pnpm test:runtimes`): installs each runtime from the npm registry into
 * `.runtimes/` (cached), builds the smoke suite, starts the mock server on this Node over
 * loopback, runs the suite on every runtime against the BUILT packages, prints a Markdown
 * table and writes it to bench/results/runtimes.md.
 *
 * PASS: every check passed. FAILED: the runtime ran and a check failed (exit code 1).
 * SKIPPED: the runtime could not be installed here (with the reason; exit code unaffected).
 *
 * Flags: --only=node22,deno  run a subset; --update  reinstall the runtimes.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_PATH } from '../../scripts/chromium.mjs';
import { buildSmoke } from './build-smoke.mjs';
import { ensureRuntime } from './install.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const benchDir = join(here, '..');
const root = join(benchDir, '..');
const RUN_TIMEOUT_MS = 120_000;
/** Debian's chromium; the chromium row is SKIPPED with the reason when it is absent. */
const KEY_COUNT = 45;

const args = process.argv.slice(2);
const only = args
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const update = args.includes('--update');

/** The entries the suite imports, by package folder. */
const USED_ENTRIES = {
  webhooks: ['.', './node', './testing'],
  client: ['.'],
  'mock-server': ['.'],
};

/** Lists the dist files, targets of the entries the suite imports, that are not built. */
function missingBuilds() {
  const missing = [];
  for (const [name, subpaths] of Object.entries(USED_ENTRIES)) {
    const dir = join(root, 'packages', name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    for (const subpath of subpaths) {
      const entry = manifest.exports?.[subpath];
      if (entry === undefined) {
        missing.push(`${manifest.name} has no export "${subpath}"`);
        continue;
      }
      const targets = JSON.stringify(entry).match(/\.\/dist\/[^"]+\.c?js/g) ?? [];
      for (const target of new Set(targets)) {
        if (!existsSync(join(dir, target))) missing.push(`packages/${name}/${target.slice(2)}`);
      }
    }
  }
  return missing;
}

function knownAnswerConfig(mock) {
  const secret = 'smoke-secret-ünï-🔑';
  const timestamp = 1_750_000_000_000;
  const body = JSON.stringify({ id: 'smoke', eventType: 'csp-violation:new-type', note: 'ü → 🔑' });
  const hex = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return { secret, timestamp, body, expectedSignature: `sha256=${hex}`, mock };
}

async function startMock() {
  try {
    const { startMockServer } = await import('@cspwatch/mock-server');
    const server = await startMockServer({ apiKeyCount: KEY_COUNT, seed: 8 });
    const mock = {
      url: server.url,
      token: server.tokens.admin,
      workspaceId: server.workspaceIds.main,
      keyCount: KEY_COUNT,
    };
    return { server, mock, problem: undefined };
  } catch (error) {
    return {
      server: undefined,
      mock: null,
      problem: `mock server: ${String(error).slice(0, 200)}`,
    };
  }
}

function runChild(command, commandArgs, cwd) {
  return new Promise((resolve) => {
    execFile(
      command,
      commandArgs,
      {
        cwd,
        timeout: RUN_TIMEOUT_MS,
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, NO_COLOR: '1' },
      },
      (error, stdout, stderr) => {
        const line = stdout.split('\n').find((text) => text.startsWith('SMOKE_RESULT '));
        if (line) {
          resolve(JSON.parse(line.slice('SMOKE_RESULT '.length)));
          return;
        }
        const lines = `${stderr}\n${stdout}`.trim().split('\n');
        const firstError = lines.find((text) => /\b\w*Error\b|^error:/.test(text));
        const tail = firstError ?? lines.slice(-4).join(' | ');
        const why = error?.killed
          ? `timed out after ${RUN_TIMEOUT_MS / 1000} s`
          : `exit ${error?.code}`;
        resolve({ crash: `${why}: ${tail.slice(0, 400)}` });
      },
    );
  });
}

/** Every runtime of the matrix: how to get it and how to run the suite on it. */
function matrix(builds, installs) {
  const cli = builds.cli.ok ? builds.cli.file : undefined;
  const viaCli = (binaryArgs) => (config) =>
    runChild(binaryArgs[0], [...binaryArgs.slice(1), cli, config], benchDir);
  return [
    {
      name: 'node20',
      label: 'Node 20 (this machine)',
      build: builds.cli,
      install: async () => ({ ok: true, installed: { binary: process.execPath } }),
      run: (i) => viaCli([i.binary]),
    },
    {
      name: 'node18',
      label: 'Node 18 (@cspwatch/webhooks only)',
      build: builds.webhooksCli,
      install: installs.node18,
      run: (i) => (config) => runChild(i.binary, [builds.webhooksCli.file, config], benchDir),
    },
    {
      name: 'node22',
      label: 'Node 22',
      build: builds.cli,
      install: installs.node22,
      run: (i) => viaCli([i.binary]),
    },
    {
      name: 'node24',
      label: 'Node 24',
      build: builds.cli,
      install: installs.node24,
      run: (i) => viaCli([i.binary]),
    },
    {
      name: 'bun',
      label: 'Bun',
      build: builds.cli,
      install: installs.bun,
      run: (i) => viaCli([i.binary, 'run']),
    },
    {
      name: 'deno',
      label: 'Deno',
      build: builds.cli,
      install: installs.deno,
      run: (i) =>
        viaCli([
          i.binary,
          'run',
          '--quiet',
          '--allow-net=127.0.0.1',
          '--allow-read',
          '--allow-env',
          '--allow-sys',
        ]),
    },
    {
      name: 'workerd',
      label: 'Cloudflare workerd (miniflare)',
      build: builds.workerd,
      install: async () => {
        const [workerd, node22] = await Promise.all([installs.workerd(), installs.node22()]);
        if (!node22.ok)
          return { ok: false, reason: `miniflare 4 needs Node >= 22: ${node22.reason}` };
        if (!workerd.ok) return workerd;
        return {
          ok: true,
          cached: workerd.cached,
          installed: { ...workerd.installed, node: node22.installed.binary },
        };
      },
      run: (i) => (config) =>
        runChild(
          i.node,
          [join(here, 'workerd-host.mjs'), i.dir, builds.workerd.file, config],
          benchDir,
        ),
    },
    {
      name: 'chromium',
      label: 'Chromium, headless (@cspwatch/webhooks Web build)',
      build: builds.browser,
      install: async () =>
        existsSync(CHROMIUM_PATH)
          ? { ok: true, installed: {} }
          : { ok: false, reason: `${CHROMIUM_PATH} not found (apt-get install chromium)` },
      run: () => (config) =>
        runChild(
          process.execPath,
          [join(here, 'chromium-host.mjs'), builds.browser.file, config],
          benchDir,
        ),
    },
    {
      name: 'edge',
      label: 'Vercel edge runtime (@edge-runtime/vm)',
      build: builds.edge,
      install: async () => ({ ok: true, installed: {} }),
      run: () => (config) =>
        runChild(
          process.execPath,
          [join(here, 'edge-host.mjs'), builds.edge.file, config],
          benchDir,
        ),
    },
  ];
}

function memoInstall(name) {
  let pending;
  return () => {
    pending ??= ensureRuntime(root, name, { update });
    return pending;
  };
}

/** Replaces the text between `<!-- NAME:start -->` and `<!-- NAME:end -->` in a Markdown file. */
function updateReadmeBlock(file, name, markdown) {
  if (!existsSync(file)) return;
  const text = readFileSync(file, 'utf8');
  const [start, end] = [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`];
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to < from) return;
  writeFileSync(
    file,
    `${text.slice(0, from + start.length)}\n${markdown.trim()}\n${text.slice(to)}`,
  );
  // Let the repo's formatter (Biome) align the tables, so `pnpm lint` stays clean.
  const biome = join(root, 'node_modules', '.bin', 'biome');
  if (!existsSync(biome)) return;
  try {
    execFileSync(biome, ['format', '--write', file], { stdio: 'ignore' });
  } catch {
    // cosmetic only
  }
}

function escapeCell(text) {
  return String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

async function main() {
  const started = Date.now();
  const missing = missingBuilds();
  if (missing.length > 0) {
    console.error(`Build the packages first (pnpm build); missing: ${missing.join(', ')}`);
    process.exit(1);
  }
  const installs = Object.fromEntries(
    ['node18', 'node22', 'node24', 'bun', 'deno', 'workerd'].map((name) => [
      name,
      memoInstall(name),
    ]),
  );
  const builds = await buildSmoke();
  const selected = matrix(builds, installs).filter((entry) => !only || only.includes(entry.name));
  // Installs are network-bound: start them all at once, then run the suites one at a time.
  const installing = selected.map((entry) => entry.install());
  const { server, mock, problem } = await startMock();
  const config = JSON.stringify(knownAnswerConfig(mock));
  const rows = [];
  try {
    for (const [index, entry] of selected.entries()) {
      const t0 = Date.now();
      const install = await installing[index];
      if (!install.ok) {
        rows.push({ ...entry, version: '-', result: 'SKIPPED', details: install.reason });
        continue;
      }
      const installNote = install.cached === false ? ', installed now' : '';
      if (!entry.build.ok) {
        rows.push({
          ...entry,
          version: install.installed.version ?? '-',
          result: 'FAILED',
          details: entry.build.reason,
        });
        continue;
      }
      const t1 = Date.now();
      const outcome = await entry.run(install.installed)(config);
      const seconds = ((Date.now() - t1) / 1000).toFixed(1);
      if (outcome.crash) {
        rows.push({
          ...entry,
          version: install.installed.version ?? '-',
          result: 'FAILED',
          details: outcome.crash,
        });
        continue;
      }
      const failed = outcome.checks.filter((check) => !check.ok);
      const entryNote = `webhooks entry ${outcome.entry ?? entry.build.entry ?? '?'}`;
      const details =
        failed.length === 0
          ? `${outcome.checks.length}/${outcome.checks.length} checks (${outcome.checks.map((c) => c.name).join(', ')}); ${entryNote}; ${seconds} s${installNote}`
          : failed.map((check) => `${check.name}: ${check.detail}`).join('; ') +
            (problem ? `; ${problem}` : '');
      rows.push({
        ...entry,
        version: outcome.version,
        result: failed.length === 0 ? 'PASS' : 'FAILED',
        details,
      });
      process.stderr.write(
        `${entry.name}: ${rows.at(-1).result} (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`,
      );
    }
  } finally {
    await server?.close();
  }
  const totalSeconds = ((Date.now() - started) / 1000).toFixed(1);
  const table = [
    '| runtime | version | result | details |',
    '| --- | --- | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${row.label} | ${escapeCell(row.version)} | ${row.result} | ${escapeCell(row.details)} |`,
    ),
  ].join('\n');
  const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${process.platform}-${process.arch}`;
  const markdown = [
    '# Runtime matrix',
    '',
    `Measured ${new Date().toISOString()} on ${machine}; host ${process.version}; whole run ${totalSeconds} s.`,
    '',
    table,
    '',
  ].join('\n');
  console.log(markdown);
  if (!only) {
    writeFileSync(join(benchDir, 'results', 'runtimes.md'), markdown);
    for (const readme of [join(benchDir, 'README.md'), join(benchDir, 'RESULTS.md')]) {
      updateReadmeBlock(readme, 'runtime-matrix', markdown.split('\n').slice(2).join('\n'));
    }
  }
  process.exitCode = rows.some((row) => row.result === 'FAILED') ? 1 : 0;
}

await main();
