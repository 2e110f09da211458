// `pnpm release` (after `pnpm build`): packs every public package into .release/, checks each
// tarball, and adds install.mjs and a README that say how to install one package with the
// @cspwatch packages it needs from that folder.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkTarball } from './check-tarball.mjs';
import { publicPackages, releaseDir, tarballName } from './public-packages.mjs';

/** The @cspwatch packages a package needs at run time (its dependencies), transitively. */
function siblingsOf(name, manifests) {
  const found = new Set([name]);
  for (const current of found) {
    for (const dependency of Object.keys(manifests.get(current).dependencies ?? {})) {
      if (manifests.has(dependency)) found.add(dependency);
    }
  }
  return [...found];
}

function readme(packages) {
  const manifests = new Map(packages.map(({ manifest }) => [manifest.name, manifest]));
  const file = (name) => `./release/${tarballName(manifests.get(name))}`;
  const rows = packages.map(({ manifest }) => {
    const needs = siblingsOf(manifest.name, manifests);
    return [
      `### ${manifest.name} ${manifest.version}`,
      '',
      '```sh',
      `node ./release/install.mjs ${manifest.name}`,
      `npm install ${needs.map(file).join(' ')}`,
      '```',
    ].join('\n');
  });
  return `# cspwatch SDK: packages to install from this folder

These tarballs are what \`npm publish\` would upload. Copy this folder into your project (the
commands below assume it is \`./release\`), then install the package you want; the @cspwatch
packages it depends on come from the same folder.

**npm or pnpm, one command** (from your project's root):

\`\`\`sh
node ./release/install.mjs @cspwatch/webhook-sender            # npm, or pnpm if pnpm-lock.yaml is here
node ./release/install.mjs --pm pnpm @cspwatch/redis @cspwatch/webhook-sender ioredis bullmq
\`\`\`

With npm it installs the tarballs of the package and of the @cspwatch packages it depends on.
With pnpm, which resolves every dependency on its own, it first points \`pnpm.overrides\` in
your package.json at this folder's tarballs. Other names come from the registry as usual.

**Without the script**, npm needs each package's @cspwatch dependencies in the same command:

${rows.join('\n\n')}

pnpm needs the overrides in package.json, then \`pnpm add\` of the tarball you want:

\`\`\`json
{
  "pnpm": {
    "overrides": {
${packages.map(({ manifest }) => `      "${manifest.name}": "file:${file(manifest.name)}"`).join(',\n')}
    }
  }
}
\`\`\`

\`@cspwatch/redis\` has optional peers: name \`@cspwatch/webhook-sender\`, \`ioredis\` and
\`bullmq\` too for the delivery queue, \`ioredis\` alone for the stores.
`;
}

rmSync(releaseDir, { recursive: true, force: true });
mkdirSync(releaseDir, { recursive: true });
const packages = publicPackages();
const problems = [];
for (const { dir, manifest } of packages) {
  execFileSync('pnpm', ['pack', '--pack-destination', releaseDir], { cwd: dir, stdio: 'pipe' });
  const tarPath = join(releaseDir, tarballName(manifest));
  const { files, problems: found } = checkTarball(tarPath);
  problems.push(...found);
  const kib = (statSync(tarPath).size / 1024).toFixed(1);
  console.log(`release: ${tarballName(manifest)} ${kib} KiB, ${files.length} files`);
}
copyFileSync(join(import.meta.dirname, 'install.mjs'), join(releaseDir, 'install.mjs'));
writeFileSync(join(releaseDir, 'README.md'), readme(packages));
if (problems.length > 0) {
  for (const problem of problems) console.error(`release: ${problem}`);
  process.exit(1);
}
console.log(`release: ${packages.length} tarballs, install.mjs and README.md in .release/`);
