/**
 * Writes the OpenAPI document and the alert JSON Schema from the contract's zod schemas.
 * `--check` writes nothing and exits 1 when a committed file differs from what the code gives.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATE_COMMAND, generatedFiles } from '../src/generated-files';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const check = process.argv.includes('--check');
let stale = 0;
for (const { path, content } of generatedFiles()) {
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
  console.error(`${stale} generated file(s) differ from the schemas; run: ${GENERATE_COMMAND}`);
  process.exit(1);
}
