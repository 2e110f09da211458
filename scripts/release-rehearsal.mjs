// The release, rehearsed without publishing anything. Run after `pnpm build`; passes before the
// cut (changesets pending) and after it (none pending).
//
// 1. Changeset guard: a public package whose src/ changed since its version last moved must
//    have a pending changeset that names it, and no bump type may break the version rule
//    (scripts/release/changesets.mjs: no major before 1.0, a first release is 0.1.0).
// 2. The cut, `pnpm version-packages`, in a scratch copy of the repo: every public package gets
//    its new version and a CHANGELOG.md (the real tree is left as it is). With nothing pending,
//    each package must already have its CHANGELOG.md.
// 3. `pnpm pack` each package, check the tarball (scripts/release/check-tarball.mjs) and
//    `npm publish --dry-run` it. Sizes are printed.
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
import { bumpProblems, pendingChangesets } from './release/changesets.mjs';
import { checkTarball } from './release/check-tarball.mjs';
import { publicPackages, root } from './release/public-packages.mjs';

const failures = [];
const fail = (message) => failures.push(message);
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

const packages = publicPackages();

// --- 1. changeset guard ------------------------------------------------------------------
const changesets = pendingChangesets();
const namedInChangeset = (name) =>
  changesets.some(({ releases }) => releases.some((release) => release.name === name));

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
for (const problem of bumpProblems(packages, changesets)) fail(problem);
console.log(`changesets: ${changesets.length} pending; every changed package is named`);

// --- 2. the cut in a scratch copy ------------------------------------------------------------
if (changesets.length === 0) {
  for (const { folder, manifest } of packages) {
    if (!existsSync(join(root, 'packages', folder, 'CHANGELOG.md'))) {
      fail(`${manifest.name}: no changeset pending and no CHANGELOG.md; run pnpm version-packages`);
    }
  }
  console.log('version-packages: no changeset pending, nothing to version');
} else {
  const scratch = mkdtempSync(join(tmpdir(), 'cspwatch-release-'));
  try {
    // Tracked files and new ones not yet committed (a changeset just written).
    const files = git('ls-files', '-z', '--cached', '--others', '--exclude-standard').split('\0');
    for (const file of files.filter((name) => name && existsSync(join(root, name)))) {
      cpSync(join(root, file), join(scratch, file), { recursive: true });
    }
    symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'));
    execFileSync(process.execPath, [join(scratch, 'scripts/version-packages.mjs')], {
      cwd: scratch,
      stdio: 'pipe',
    });
    for (const { folder, manifest } of packages) {
      const next = readJson(join(scratch, 'packages', folder, 'package.json')).version;
      if (manifest.version === '0.0.0' && next !== '0.1.0') {
        fail(`${manifest.name}: the cut makes it ${next}; its first release must be 0.1.0`);
      }
      const changelog = join(scratch, 'packages', folder, 'CHANGELOG.md');
      if (!existsSync(changelog)) fail(`${manifest.name}: the cut wrote no CHANGELOG.md`);
      else if (!readFileSync(changelog, 'utf8').includes(`\n## ${next}\n`)) {
        fail(`${manifest.name}: CHANGELOG.md has no "## ${next}" section`);
      } else console.log(`version-packages: ${manifest.name} ${manifest.version} -> ${next}`);
    }
    const left = readdirSync(join(scratch, '.changeset')).filter(
      (name) => name.endsWith('.md') && name !== 'README.md',
    );
    if (left.length > 0) fail(`the cut left changesets behind: ${left.join(', ')}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
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
    const { files, problems } = checkTarball(tarPath);
    for (const problem of problems) fail(problem);
    execFileSync('npm', ['publish', '--dry-run', '--tag', 'rehearsal', tarPath], {
      cwd: packDir,
      stdio: 'pipe',
    });
    const kib = (statSync(tarPath).size / 1024).toFixed(1);
    console.log(`pack + publish --dry-run: ${tarball} ${kib} KiB, ${files.length} files`);
  }
} finally {
  rmSync(packDir, { recursive: true, force: true });
}

if (failures.length > 0) {
  for (const message of failures) console.error(`release rehearsal: ${message}`);
  process.exit(1);
}
console.log('release rehearsal: passed');
