/**
 * Every `npm install` / `pnpm add` line of the docs and READMEs names a peer of a cspwatch
 * package with a version of the major that package supports: a bare `ioredis` installs the
 * registry's latest major, and npm only warns when it is outside the peer range.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromRoot, repositoryRoot } from '../src/typecheck';

interface Manifest {
  name: string;
  private?: boolean;
  peerDependencies?: Record<string, string>;
}

/** Each peer of a public package with the major of its range, e.g. `ioredis` → 5. */
function peerMajors(): Map<string, { major: number; of: string }> {
  const majors = new Map<string, { major: number; of: string }>();
  const packagesDir = join(repositoryRoot, 'packages');
  for (const folder of readdirSync(packagesDir)) {
    const manifest = JSON.parse(
      readFileSync(join(packagesDir, folder, 'package.json'), 'utf8'),
    ) as Manifest;
    if (manifest.private) continue;
    for (const [peer, range] of Object.entries(manifest.peerDependencies ?? {})) {
      const major = /^[\^~]?(\d+)\./.exec(range)?.[1];
      if (major !== undefined && !peer.startsWith('@cspwatch/')) {
        majors.set(peer, { major: Number(major), of: manifest.name });
      }
    }
  }
  return majors;
}

/**
 * The problems of the install commands in `text`: a peer named without a version, or with a
 * version whose major is not the one the peer range gives.
 */
function installLineProblems(
  file: string,
  text: string,
  majors: ReadonlyMap<string, { major: number; of: string }>,
): string[] {
  const problems: string[] = [];
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(/\b(?:npm (?:install|i|add)|pnpm add)\b([^`#\n]*)/g)) {
      for (const word of (match[1] ?? '').trim().split(/\s+/)) {
        const [, name = '', version] = /^((?:@[^/@\s]+\/)?[^@\s]+)(?:@(.+))?$/.exec(word) ?? [];
        const peer = majors.get(name);
        if (!peer) continue;
        const given = /^[\^~]?(\d+)/.exec(version ?? '')?.[1];
        if (given === undefined || Number(given) !== peer.major) {
          problems.push(
            `${file}:${index + 1}: ${word} should be ${name}@^${peer.major} (the major ${peer.of} supports)`,
          );
        }
      }
    }
  });
  return problems;
}

function pages(): string[] {
  const docs = readdirSync(join(repositoryRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(repositoryRoot, 'docs', name));
  const readmes = readdirSync(join(repositoryRoot, 'packages')).map((folder) =>
    join(repositoryRoot, 'packages', folder, 'README.md'),
  );
  return [join(repositoryRoot, 'README.md'), ...docs, ...readmes].filter(existsSync);
}

describe('install lines', () => {
  const majors = peerMajors();

  it('knows the peers a user installs beside the packages', () => {
    expect(majors.get('ioredis')?.major).toBe(5);
    expect(majors.get('msw')?.major).toBe(2);
  });

  it('name every peer with the major its package supports', () => {
    const problems = pages().flatMap((path) =>
      installLineProblems(fromRoot(path), readFileSync(path, 'utf8'), majors),
    );
    expect(problems).toEqual([]);
  });

  it('flags a bare peer and a wrong major, and passes the right one (the check can fail)', () => {
    const text = [
      'npm install @cspwatch/redis ioredis bullmq@^6.7   # the queue',
      '`npm install -D msw@3` or `pnpm add msw@^2`',
    ].join('\n');
    expect(installLineProblems('x.md', text, majors)).toEqual([
      'x.md:1: ioredis should be ioredis@^5 (the major @cspwatch/redis supports)',
      'x.md:2: msw@3 should be msw@^2 (the major @cspwatch/mock-server supports)',
    ]);
  });
});
