// The pending changesets, and the rule on bump types before 1.0.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './public-packages.mjs';

/**
 * Reads every pending changeset in .changeset/.
 * @returns `{ file, text, releases: [{ name, type }] }` for each
 */
export function pendingChangesets() {
  const folder = join(root, '.changeset');
  return readdirSync(folder)
    .filter((file) => file.endsWith('.md') && file !== 'README.md')
    .map((file) => {
      const text = readFileSync(join(folder, file), 'utf8');
      const header = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
      const releases = [
        ...header.matchAll(/^\s*["']?([^"':]+)["']?\s*:\s*(major|minor|patch)\s*$/gm),
      ].map(([, name, type]) => ({ name, type }));
      return { file, text, releases };
    });
}

/**
 * What would keep `changeset version` from giving the versions we promise: before 1.0 a
 * breaking change is a `minor` (semver's 0.x rule, DESIGN.md "Releases"), so a `major` of a 0.x
 * package is refused (it would jump to 1.0.0); and a package still at 0.0.0 is first released
 * as 0.1.0, so one of its changesets must be `minor`.
 * @param packages - the public packages (`{ manifest }`)
 * @param changesets - from {@link pendingChangesets}
 * @returns one message per problem, each saying which file to change; empty when none
 */
export function bumpProblems(packages, changesets) {
  const problems = [];
  for (const { manifest } of packages) {
    const { name, version } = manifest;
    if (!version.startsWith('0.')) continue;
    const mine = changesets.flatMap(({ file, releases }) =>
      releases.filter((release) => release.name === name).map(({ type }) => ({ file, type })),
    );
    for (const { file, type } of mine.filter(({ type }) => type === 'major')) {
      problems.push(
        `.changeset/${file}: "${name}": ${type} would make ${name} 1.0.0; before 1.0 a breaking change is a minor (say in the text that it breaks), so write "${name}": minor`,
      );
    }
    if (version === '0.0.0' && mine.length > 0 && !mine.some(({ type }) => type === 'minor')) {
      problems.push(
        `${name} is at 0.0.0 and its first release is 0.1.0, but its changesets (${mine.map(({ file }) => file).join(', ')}) are all patch; make one of them "${name}": minor`,
      );
    }
  }
  return problems;
}
