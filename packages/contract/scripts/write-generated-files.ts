/**
 * Writes generated files under the repository root, or with `check` only compares them:
 * the one loop behind every package's `generate` script.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GeneratedFile } from '../src/openapi/generated-files';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Writes each file whose content changed and prints what it did. With `check` it writes
 * nothing and exits 1, naming `command`, when a committed file differs from what the code gives.
 */
export function writeGeneratedFiles(
  files: readonly GeneratedFile[],
  command: string,
  check: boolean,
): void {
  let stale = 0;
  for (const { path, content } of files) {
    const target = join(root, path);
    let current: string | undefined;
    try {
      current = readFileSync(target, 'utf8');
    } catch {
      current = undefined;
    }
    if (current === content) {
      console.log(`unchanged ${path}`);
    } else if (check) {
      stale++;
      console.error(`stale     ${path}`);
    } else {
      writeFileSync(target, content);
      console.log(`wrote     ${path}`);
    }
  }
  if (stale > 0) {
    console.error(`${stale} generated file(s) differ from the schemas; run: ${command}`);
    process.exit(1);
  }
}
