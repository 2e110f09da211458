/**
 * Every ```ts block in docs/*.md, the root README and each package's README is a complete
 * module that must type-check against the packages' current source, with the repository's
 * strict options. A page whose code no longer matches the API fails here, naming the Markdown
 * file and line.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';
import { extractCodeBlocks } from '../src/extract';
import { fromRoot, repositoryRoot, type SourceBlock, typecheckBlocks } from '../src/typecheck';

const docsDir = join(repositoryRoot, 'docs');
const workDir = join(repositoryRoot, 'examples/docs-check/.cache');
const CHECKED = new Set(['ts', 'typescript']);
/** Pages the index links to that hold commands only, no TypeScript. */
const COMMANDS_ONLY = new Set(['install.md']);

/** The READMEs a newcomer reads first: the repository's and each package's. */
function readmePaths(): string[] {
  const packagesDir = join(repositoryRoot, 'packages');
  const packageReadmes = readdirSync(packagesDir)
    .sort()
    .map((name) => join(packagesDir, name, 'README.md'))
    .filter((path) => existsSync(path));
  return [join(repositoryRoot, 'README.md'), ...packageReadmes];
}

function blocksOf(paths: readonly string[]): SourceBlock[] {
  return paths.flatMap((path) =>
    extractCodeBlocks(readFileSync(path, 'utf8'))
      .filter((block) => CHECKED.has(block.lang) && !block.meta.includes('no-check'))
      .map((block) => ({ file: fromRoot(path), line: block.line, code: block.code })),
  );
}

function docBlocks(): SourceBlock[] {
  const pages = readdirSync(docsDir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(docsDir, name));
  return blocksOf(pages);
}

describe('docs code blocks', () => {
  it('every guide the index links to exists and has checked TypeScript', () => {
    const index = readFileSync(join(docsDir, 'README.md'), 'utf8');
    const linked = [...index.matchAll(/\]\(\.\/([\w-]+\.md)\)/g)].map((match) => match[1]!);
    expect(linked.length).toBeGreaterThanOrEqual(6);
    const files = new Set(docBlocks().map((block) => block.file));
    for (const guide of linked) {
      expect(readdirSync(docsDir), `${guide} does not exist`).toContain(guide);
      if (COMMANDS_ONLY.has(guide)) continue;
      expect(files, `${guide} has no ts block`).toContain(`docs/${guide}`);
    }
  });

  it('type-checks every ts block against the workspace packages', {
    timeout: budget(60_000),
  }, () => {
    const blocks = [...docBlocks(), ...blocksOf(readmePaths())];
    expect(blocks.some((block) => block.file === 'README.md')).toBe(true);
    const diagnostics = typecheckBlocks(blocks, join(workDir, 'docs'));
    expect(diagnostics.map((d) => `${d.location} ${d.message}`)).toEqual([]);
  });

  it('reports a broken block at its Markdown line (the check can fail)', {
    timeout: 60_000,
  }, () => {
    const diagnostics = typecheckBlocks(
      [
        {
          file: 'docs/x.md',
          line: 10,
          code: "import { verifyWebhook } from '@cspwatch/webhooks';\nconst n: number = 'a';",
        },
        {
          file: 'docs/y.md',
          line: 3,
          code: "import { notAnExport } from '@cspwatch/webhooks';\nnotAnExport();",
        },
        {
          file: 'docs/z.md',
          line: 1,
          code: "import { verifyWebhook } from '@cspwatch/webhooks';\nawait verifyWebhook({ body: '', headers: {}, secret: 'a-long-secret' });",
        },
      ],
      join(workDir, 'negative'),
    );
    const locations = diagnostics.map((d) => d.location);
    expect(locations).toContain('docs/x.md:11:7');
    expect(locations.some((l) => l.startsWith('docs/y.md:3:'))).toBe(true);
    expect(locations.some((l) => l.startsWith('docs/z.md'))).toBe(false);
  });
});
