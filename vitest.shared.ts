import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));

type ExportTarget = string | { [condition: string]: ExportTarget };

/** Picks the file a Node ESM importer gets: the `node` condition first, then `import`, then `default`. */
function nodeImportTarget(target: ExportTarget): string | undefined {
  if (typeof target === 'string') return target;
  for (const condition of ['node', 'import', 'default']) {
    const next = target[condition];
    if (next !== undefined) return nodeImportTarget(next);
  }
  return undefined;
}

/**
 * Vitest aliases that resolve every `@cspwatch/*` import to the package's TypeScript source
 * (`dist/x.js` → `src/x.ts`), so one package's tests run against another's current source
 * without a build step in between.
 */
export function workspaceSourceAliases(): { find: RegExp; replacement: string }[] {
  const aliases: { find: RegExp; replacement: string }[] = [];
  for (const folder of readdirSync(join(root, 'packages'))) {
    const packageDir = join(root, 'packages', folder);
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
      name: string;
      exports: Record<string, ExportTarget>;
    };
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      const file = nodeImportTarget(target);
      if (!file?.startsWith('./dist/') || !file.endsWith('.js')) continue;
      const source = file.replace('./dist/', './src/').replace(/\.js$/, '.ts');
      const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
      const escaped = specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      aliases.push({ find: new RegExp(`^${escaped}$`), replacement: resolve(packageDir, source) });
    }
  }
  return aliases;
}
