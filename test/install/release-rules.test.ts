/** The release rules on their own: bump types before 1.0, and what a tarball must hold. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bumpProblems } from '../../scripts/release/changesets.mjs';
import { checkTarball } from '../../scripts/release/check-tarball.mjs';

const at = (version: string) => [{ manifest: { name: '@cspwatch/webhooks', version } }];
const bump = (type: 'major' | 'minor' | 'patch') => ({
  file: `${type}.md`,
  releases: [{ name: '@cspwatch/webhooks', type }],
});

describe('bumpProblems', () => {
  it('passes a first release with a minor among its changesets (0.0.0 -> 0.1.0)', () => {
    expect(bumpProblems(at('0.0.0'), [bump('patch'), bump('minor')])).toEqual([]);
  });

  it('refuses a major before 1.0, naming the file and what to write', () => {
    const [problem] = bumpProblems(at('0.1.0'), [bump('major')]);
    expect(problem).toMatch(/^\.changeset\/major\.md: .*1\.0\.0.*"@cspwatch\/webhooks": minor/);
  });

  it('refuses a first release that only has patches (it would be 0.0.1)', () => {
    expect(bumpProblems(at('0.0.0'), [bump('patch')])).toEqual([
      expect.stringMatching(/first release is 0\.1\.0.*patch\.md/),
    ]);
  });
});

const scratch = mkdtempSync(join(tmpdir(), 'cspwatch-tarball-rules-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Packs `files` under `package/` the way npm does and checks the tarball. */
function check(name: string, files: Record<string, string>) {
  const dir = join(scratch, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, 'package', file)), { recursive: true });
    writeFileSync(join(dir, 'package', file), text);
  }
  execFileSync('tar', ['-czf', join(dir, 'out.tgz'), '-C', dir, 'package']);
  return checkTarball(join(dir, 'out.tgz')).problems;
}

const dual = {
  '.': {
    import: { types: './dist/index.d.ts', default: './dist/index.js' },
    require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
  },
};
const built = {
  'dist/index.js': '',
  'dist/index.cjs': '',
  'dist/index.d.ts': '',
  'dist/index.d.cts': '',
};

describe('checkTarball', () => {
  it('passes LICENSE, README and an ESM + CJS entry with types', () => {
    const manifest = JSON.stringify({ name: 'ok', version: '0.1.0', exports: dual });
    const files = { 'package.json': manifest, LICENSE: 'MIT', 'README.md': '#', ...built };
    expect(check('ok', files)).toEqual([]);
  });

  it('names a missing LICENSE, a missing CJS branch and an unshipped types file', () => {
    const exports = { '.': { import: dual['.'].import } };
    const manifest = JSON.stringify({ name: 'bad', version: '0.1.0', exports });
    const { 'dist/index.d.ts': _, ...withoutTypes } = built;
    expect(check('bad', { 'package.json': manifest, 'README.md': '#', ...withoutTypes })).toEqual(
      expect.arrayContaining([
        'bad: LICENSE missing from the tarball',
        'bad: exports["."] has no require branch (ESM and CJS both ship)',
        'bad: exports["."] ./dist/index.d.ts is not shipped',
      ]),
    );
  });
});
