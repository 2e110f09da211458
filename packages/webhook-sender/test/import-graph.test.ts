/**
 * The house's import rules, checked on the source: no import loop in any package, no
 * production file importing a `testing` entry (tests may), and relative imports without a
 * file suffix (`./errors`, not `./errors.js`: the Bundler resolution of tsconfig.base.json
 * and tsup's bundling need none).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packagesDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const IMPORT = /(?:import|export)\s[^;]*?from\s+'([^']+)'|import\('([^']+)'\)/g;
const isTest = (file: string) => /\.test(-d)?\.ts$/.test(file);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

function specifiers(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => (m[1] ?? m[2]) as string);
}

/** Relative imports of production files, resolved to `.ts` paths. */
function importGraph(srcDir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(srcDir).filter((f) => !isTest(f))) {
    const local = specifiers(file).filter((s) => s.startsWith('.'));
    graph.set(
      file,
      local.map((s) => resolve(dirname(file), s).replace(/\.js$/, '').concat('.ts')),
    );
  }
  return graph;
}

/** Every import loop, as the list of files around it (relative to `base`). */
export function findLoops(graph: Map<string, string[]>, base: string): string[][] {
  const loops: string[][] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const visit = (file: string) => {
    const at = stack.indexOf(file);
    if (at >= 0) {
      loops.push(stack.slice(at).map((f) => relative(base, f)));
      return;
    }
    if (done.has(file)) return;
    stack.push(file);
    for (const next of graph.get(file) ?? []) visit(next);
    stack.pop();
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return loops;
}

const packages = readdirSync(packagesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

describe('import graph', () => {
  it.each(packages)('packages/%s/src has no import loop', (name) => {
    const src = join(packagesDir, name, 'src');
    expect(findLoops(importGraph(src), src)).toEqual([]);
  });

  it('finds a loop when there is one (the check can fail)', () => {
    const graph = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts']],
      ['/c.ts', ['/a.ts']],
    ]);
    expect(findLoops(graph, '/')).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it.each(packages)('production code of packages/%s never imports a testing entry', (name) => {
    const src = join(packagesDir, name, 'src');
    const offenders = sourceFiles(src)
      .filter((file) => !isTest(file) && !file.includes(`${join('src', 'testing')}`))
      .filter((file) => !file.endsWith(join('src', 'testing.ts')))
      .flatMap((file) =>
        specifiers(file)
          .filter((s) => /\/testing(\.js)?$/.test(s) && s.startsWith('@'))
          .map((s) => `${relative(src, file)} imports ${s}`),
      );
    expect(offenders).toEqual([]);
  });

  it.each(packages)('relative imports in packages/%s/src have no .js suffix', (name) => {
    const src = join(packagesDir, name, 'src');
    const suffixed = sourceFiles(src).flatMap((file) =>
      specifiers(file)
        .filter((s) => s.startsWith('.') && s.endsWith('.js'))
        .map((s) => `${relative(src, file)} imports ${s}`),
    );
    expect(suffixed).toEqual([]);
  });
});
