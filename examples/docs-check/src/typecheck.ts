/** Type-checks code blocks as modules of their own against the workspace packages' source. */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');

/** A block to check, with where it came from. */
export interface SourceBlock {
  /** Markdown file, relative to the repository root. */
  file: string;
  /** 1-based line of the block's first code line. */
  line: number;
  code: string;
}

/** One type error, located in the Markdown file. */
export interface BlockDiagnostic {
  /** `docs/guide.md:12:5`. */
  location: string;
  message: string;
}

/**
 * `paths` mapping every `@cspwatch/*` entry point to its TypeScript source, the same
 * mapping the vitest projects use (`dist/<name>.js` → `src/<name>.ts`).
 */
export function workspacePaths(): Record<string, string[]> {
  const paths: Record<string, string[]> = {};
  for (const folder of readdirSync(join(root, 'packages'))) {
    const dir = join(root, 'packages', folder);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      name: string;
      exports: Record<string, unknown>;
    };
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      const file = nodeImportTarget(target);
      if (!file?.startsWith('./dist/') || !file.endsWith('.js')) continue;
      const source = join(dir, file.replace('./dist/', 'src/').replace(/\.js$/, '.ts'));
      const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
      paths[specifier] = [source];
    }
  }
  return paths;
}

function nodeImportTarget(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  if (typeof target !== 'object' || target === null) return undefined;
  for (const condition of ['node', 'import', 'default']) {
    const next = (target as Record<string, unknown>)[condition];
    if (next !== undefined) return nodeImportTarget(next);
  }
  return undefined;
}

/**
 * Writes each block to `<workDir>/<n>.ts` and type-checks them all in one program with the
 * repository's strict base options. Only errors inside the blocks are reported; the
 * packages' own sources are checked by their own typecheck.
 */
export function typecheckBlocks(
  blocks: readonly SourceBlock[],
  workDir: string,
): BlockDiagnostic[] {
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const files = new Map<string, SourceBlock>();
  blocks.forEach((block, index) => {
    const name = resolve(workDir, `block-${String(index).padStart(3, '0')}.ts`);
    writeFileSync(name, block.code);
    files.set(name, block);
  });
  const base = ts.readConfigFile(join(root, 'tsconfig.base.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(base.config, ts.sys, root);
  const program = ts.createProgram([...files.keys()], {
    ...options,
    noEmit: true,
    paths: workspacePaths(),
  });
  const diagnostics: BlockDiagnostic[] = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const source = diagnostic.file && files.get(resolve(diagnostic.file.fileName));
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (!diagnostic.file || !source) {
      // A global error (bad option, missing lib) would hide every block error: report it.
      if (!diagnostic.file) diagnostics.push({ location: '(program)', message });
      continue;
    }
    const at = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    diagnostics.push({
      location: `${source.file}:${source.line + at.line}:${at.character + 1}`,
      message,
    });
  }
  return diagnostics;
}

/** The repository root, for reading the docs. */
export const repositoryRoot = root;

/** A path relative to the repository root, with forward slashes. */
export function fromRoot(path: string): string {
  return relative(root, path).split('\\').join('/');
}
