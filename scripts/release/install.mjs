#!/usr/bin/env node
// Installs @cspwatch packages from the folder of tarballs this file sits in (`pnpm release`
// copies it there), with the @cspwatch packages they need from the same folder, using npm or
// pnpm. Run it from your project:
//
//   node path/to/release/install.mjs @cspwatch/webhook-sender
//   node path/to/release/install.mjs --pm pnpm @cspwatch/redis @cspwatch/webhook-sender ioredis bullmq
//
// Names that are not tarballs here (ioredis, bullmq, …) come from the registry as usual.
// npm gets the tarballs of the packages you name and of the @cspwatch packages they depend on
// (npm then finds those siblings among your direct dependencies). pnpm resolves each
// dependency on its own, so the script also writes `pnpm.overrides` into your package.json,
// pointing every @cspwatch package of this folder at its tarball, and then adds the ones you
// named. Once the packages are on the registry, delete those overrides.
//
// A registry name given without a version that is a peer of a package installed here (ioredis,
// bullmq, msw…) gets the range that package declares, so `ioredis` cannot bring a major it does
// not support. With npm, a package installed without --dev goes to dependencies even if it was a
// devDependency, and a sibling already in dependencies stays there on a --dev install.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const USAGE = `Usage: node ${relative(process.cwd(), import.meta.filename)} [--pm npm|pnpm] [--dev] <package...>
  <package>  @cspwatch/<name> from this folder, or any registry package
  --pm       the package manager (default: pnpm when pnpm-lock.yaml is here, else npm)
  --dev      save as devDependencies`;

/** Exits with a message saying what to fix. */
function refuse(message) {
  console.error(`install: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function parseArguments(argv) {
  const options = { pm: undefined, dev: false, names: [] };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    if (argument === '--dev' || argument === '-D') options.dev = true;
    else if (argument === '--pm') options.pm = argv[++index];
    else if (argument.startsWith('--pm=')) options.pm = argument.slice('--pm='.length);
    else if (argument === '--help' || argument === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (argument.startsWith('-')) refuse(`unknown option ${argument}`);
    else options.names.push(argument);
  }
  options.pm ??= existsSync('pnpm-lock.yaml') ? 'pnpm' : 'npm';
  if (options.pm !== 'npm' && options.pm !== 'pnpm') {
    refuse(`--pm ${options.pm}: this script drives npm or pnpm`);
  }
  if (options.names.length === 0) refuse('name at least one package');
  return options;
}

/** The tarballs of this folder by package name, each with its packed manifest. */
function tarballsHere(folder) {
  const byName = new Map();
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.tgz'))) {
    const path = join(folder, file);
    const manifest = JSON.parse(
      execFileSync('tar', ['-xzOf', path, 'package/package.json'], { encoding: 'utf8' }),
    );
    const other = byName.get(manifest.name);
    if (other)
      refuse(`${folder} holds two tarballs of ${manifest.name} (${other.file}, ${file}); keep one`);
    byName.set(manifest.name, { file, path, manifest });
  }
  return byName;
}

/** The named tarballs and, transitively, the tarballs their dependencies name. */
function withSiblings(names, tarballs) {
  const needed = new Set();
  const visit = (name) => {
    if (needed.has(name)) return;
    needed.add(name);
    const { manifest } = tarballs.get(name);
    const optional = manifest.peerDependenciesMeta ?? {};
    const requiredPeers = Object.keys(manifest.peerDependencies ?? {}).filter(
      (peer) => !optional[peer]?.optional,
    );
    for (const dependency of [...Object.keys(manifest.dependencies ?? {}), ...requiredPeers]) {
      if (tarballs.has(dependency)) visit(dependency);
    }
  };
  for (const name of names) visit(name);
  return [...needed];
}

/** The name of a registry spec without a version (`ioredis`), `undefined` for `ioredis@5`. */
function bareName(spec) {
  return /^(@[^/@]+\/)?[^@]+$/.test(spec) ? spec : undefined;
}

/** Gives each unversioned registry name the peer range one of `names`' tarballs declares for it. */
function withPeerRanges(registry, names, tarballs) {
  return registry.map((spec) => {
    const name = bareName(spec);
    for (const ours of name ? names : []) {
      const range = tarballs.get(ours).manifest.peerDependencies?.[name];
      if (range === undefined) continue;
      console.log(`install: ${name}@${range}, the range ${ours} supports`);
      return `${name}@${range}`;
    }
    return spec;
  });
}

/** Names listed in the project's `dependencies`. */
function productionDependencies() {
  return new Set(Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).dependencies ?? {}));
}

const spec = (path) => {
  const relativePath = relative(process.cwd(), path).split('\\').join('/');
  return relativePath.startsWith('.') ? relativePath : `./${relativePath}`;
};

/** Runs the command; exits with its status when it fails, or when `last`. */
function run(command, args, { last = true } = {}) {
  console.log(`install: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.error) refuse(`could not run ${command}: ${result.error.message}`);
  if (last || result.status !== 0) process.exit(result.status ?? 1);
}

const options = parseArguments(process.argv.slice(2));
if (!existsSync('package.json')) {
  refuse(`no package.json in ${process.cwd()}; run this from your project (npm init -y makes one)`);
}
const tarballs = tarballsHere(import.meta.dirname);
const [ours, registry] = [[], []];
for (const name of options.names) {
  if (tarballs.has(name)) ours.push(name);
  else if (name.startsWith('@cspwatch/')) {
    refuse(`${name} is not in ${import.meta.dirname}; it holds ${[...tarballs.keys()].join(', ')}`);
  } else registry.push(name);
}
const save = options.dev ? ['--save-dev'] : [];
const siblings = withSiblings(ours, tarballs);
const fromRegistry = withPeerRanges(registry, siblings, tarballs);

if (options.pm === 'npm') {
  const file = (name) => spec(tarballs.get(name).path);
  // npm moves a package to the section of the command that names it: a sibling already in
  // dependencies is brought to this folder's version there first, then left out of --save-dev.
  const inProduction = options.dev ? productionDependencies() : new Set();
  const kept = siblings.filter((name) => !ours.includes(name) && inProduction.has(name));
  if (kept.length > 0) run('npm', ['install', '--save-prod', ...kept.map(file)], { last: false });
  const files = siblings.filter((name) => !kept.includes(name)).map(file);
  run('npm', ['install', ...(options.dev ? save : ['--save-prod']), ...files, ...fromRegistry]);
} else {
  const manifestPath = resolve('package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  manifest.pnpm ??= {};
  manifest.pnpm.overrides ??= {};
  for (const [name, { path }] of tarballs) manifest.pnpm.overrides[name] = `file:${spec(path)}`;
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(
    `install: package.json pnpm.overrides now point ${[...tarballs.keys()].join(', ')} at ${spec(import.meta.dirname)}`,
  );
  run('pnpm', [
    'add',
    ...save,
    ...ours.map((name) => spec(tarballs.get(name).path)),
    ...fromRegistry,
  ]);
}
