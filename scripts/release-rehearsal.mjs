// The first release, rehearsed without publishing anything. Run after `pnpm build`.
//
// 1. Changeset guard: a public package whose src/ changed since its version last moved must
//    have a pending changeset that names it.
// 2. `changeset version` in a scratch copy of the repo writes a CHANGELOG.md and a new version
//    for every public package (the real tree is left as it is).
// 3. `pnpm pack` each package and `npm publish --dry-run` the tarball; each tarball must hold
//    LICENSE, README.md and dist/, resolve `workspace:` ranges, ship no source maps and no
//    build output that neither `exports` nor `bin` loads. Sizes are printed.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const failures = [];
const fail = (message) => failures.push(message);
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

const packages = readdirSync(join(root, 'packages'))
  .map((folder) => ({ folder, dir: join(root, 'packages', folder) }))
  .filter(({ dir }) => existsSync(join(dir, 'package.json')))
  .map((entry) => ({ ...entry, manifest: readJson(join(entry.dir, 'package.json')) }))
  .filter(({ manifest }) => manifest.private !== true);

// --- 1. changeset guard ------------------------------------------------------------------
const pendingChangesets = readdirSync(join(root, '.changeset'))
  .filter((name) => name.endsWith('.md') && name !== 'README.md')
  .map((name) => readFileSync(join(root, '.changeset', name), 'utf8'));
const namedInChangeset = (name) =>
  pendingChangesets.some((text) => /^---\n([\s\S]*?)\n---/.exec(text)?.[1].includes(`"${name}"`));

for (const { folder, manifest } of packages) {
  const manifestPath = `packages/${folder}/package.json`;
  // The commit where the version last changed; a never-released package counts from its start.
  const versionCommit =
    git('log', '-1', '--format=%H', '-G"version":', '--', manifestPath) ||
    git('log', '--diff-filter=A', '--format=%H', '--', manifestPath).split('\n').pop();
  const changed = git('diff', '--name-only', versionCommit, 'HEAD', '--', `packages/${folder}/src`);
  const changedSources = changed
    .split('\n')
    .filter((file) => file && !/\.test(-d)?\.ts$/.test(file));
  if (changedSources.length > 0 && !namedInChangeset(manifest.name)) {
    fail(
      `${manifest.name}: src/ changed since ${manifest.version} but no pending changeset names it`,
    );
  }
}
console.log(`changesets: ${pendingChangesets.length} pending; every changed package is named`);

// --- 2. changeset version in a scratch copy ----------------------------------------------
const scratch = mkdtempSync(join(tmpdir(), 'cspwatch-release-'));
try {
  for (const file of git('ls-files', '-z').split('\0').filter(Boolean)) {
    cpSync(join(root, file), join(scratch, file), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'));
  execFileSync(process.execPath, [join(root, 'node_modules/@changesets/cli/bin.js'), 'version'], {
    cwd: scratch,
    stdio: 'pipe',
  });
  for (const { folder, manifest } of packages) {
    const next = readJson(join(scratch, 'packages', folder, 'package.json')).version;
    // A major bump that no changeset asked for (changesets bumps a peer dependent major by
    // default; .changeset/config.json turns that off while the peer stays in range).
    const askedMajor = pendingChangesets.some((text) =>
      new RegExp(`"${manifest.name}":\\s*major`).test(text),
    );
    if (next.split('.')[0] !== manifest.version.split('.')[0] && !askedMajor) {
      fail(`${manifest.name}: changeset version makes it ${next}, a major no changeset asked for`);
    }
    const changelog = join(scratch, 'packages', folder, 'CHANGELOG.md');
    if (!existsSync(changelog)) fail(`${manifest.name}: changeset version wrote no CHANGELOG.md`);
    else console.log(`changeset version: ${manifest.name} ${manifest.version} -> ${next}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

// --- 3. pack and publish --dry-run -------------------------------------------------------
const packDir = mkdtempSync(join(tmpdir(), 'cspwatch-pack-'));
try {
  for (const { dir, manifest } of packages) {
    const before = new Set(readdirSync(packDir));
    execFileSync('pnpm', ['pack', '--pack-destination', packDir], { cwd: dir, stdio: 'pipe' });
    const tarball = readdirSync(packDir).find((name) => !before.has(name));
    if (!tarball) {
      fail(`${manifest.name}: pnpm pack wrote no tarball`);
      continue;
    }
    const tarPath = join(packDir, tarball);
    const files = execFileSync('tar', ['-tzf', tarPath], { encoding: 'utf8' }).split('\n');
    for (const required of ['package/LICENSE', 'package/README.md', 'package/package.json']) {
      if (!files.includes(required)) fail(`${manifest.name}: ${required} missing from the tarball`);
    }
    if (!files.some((file) => file.startsWith('package/dist/'))) fail(`${manifest.name}: no dist/`);
    const packed = JSON.parse(
      execFileSync('tar', ['-xzOf', tarPath, 'package/package.json'], { encoding: 'utf8' }),
    );
    if (JSON.stringify(packed).includes('workspace:')) {
      fail(`${manifest.name}: the packed manifest still has a workspace: range`);
    }
    // Decided: no source maps in tarballs (dist/ is readable, unminified ES2022; maps that
    // point at unshipped src/ make bundlers warn, and inlined sources doubled the size).
    for (const map of files.filter((file) => file.endsWith('.map'))) {
      fail(`${manifest.name}: ${map} is shipped; builds set sourcemap: false`);
    }
    // What loads dist/: the exports map, and the committed bin/ launchers (which import dist/).
    const launchers = files
      .filter((file) => file.startsWith('package/bin/'))
      .map((file) => execFileSync('tar', ['-xzOf', tarPath, file], { encoding: 'utf8' }));
    const declaredDist = JSON.stringify(packed.exports ?? {}) + launchers.join('\n');
    for (const file of files.filter((name) => /^package\/dist\/[^/]+\.c?js$/.test(name))) {
      const stem = file.slice('package/'.length).replace(/\.c?js$/, '');
      if (!declaredDist.includes(stem))
        fail(`${manifest.name}: ${file} is shipped but nothing loads it`);
    }
    execFileSync('npm', ['publish', '--dry-run', '--tag', 'rehearsal', tarPath], {
      cwd: packDir,
      stdio: 'pipe',
    });
    const kib = (statSync(tarPath).size / 1024).toFixed(1);
    console.log(`pack + publish --dry-run: ${tarball} ${kib} KiB, ${files.length - 1} files`);
  }
} finally {
  rmSync(packDir, { recursive: true, force: true });
}

if (failures.length > 0) {
  for (const message of failures) console.error(`release rehearsal: ${message}`);
  process.exit(1);
}
console.log('release rehearsal: passed');
