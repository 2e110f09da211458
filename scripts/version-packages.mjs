// `pnpm version-packages`: the release cut. Refuses bump types that would not give the promised
// versions (a major before 1.0, a first release that is not 0.1.0), then runs
// `changeset version`, which writes each package's version and CHANGELOG.md and deletes the
// changesets it used.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { bumpProblems, pendingChangesets } from './release/changesets.mjs';
import { publicPackages, root } from './release/public-packages.mjs';

const before = publicPackages();
const problems = bumpProblems(before, pendingChangesets());
if (problems.length > 0) {
  for (const problem of problems) console.error(`version-packages: ${problem}`);
  console.error('version-packages: nothing was changed');
  process.exit(1);
}
execFileSync(process.execPath, [join(root, 'node_modules/@changesets/cli/bin.js'), 'version'], {
  cwd: root,
  stdio: 'inherit',
});
const after = new Map(publicPackages().map(({ manifest }) => [manifest.name, manifest.version]));
for (const { manifest } of before) {
  console.log(
    `version-packages: ${manifest.name} ${manifest.version} -> ${after.get(manifest.name)}`,
  );
}
