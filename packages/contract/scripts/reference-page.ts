/**
 * Renders the OpenAPI document into one self-contained HTML page with Redocly's build-docs:
 * scripts inlined (`--inlineBundle`, nothing from a CDN) and telemetry off, so the page works
 * offline. The output is byte-for-byte reproducible from the document, so it is not committed.
 *
 * Usage: tsx scripts/reference-page.ts [output.html]   (default: docs/reference/api.html)
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const output = resolve(process.argv[2] ?? join(root, 'docs/reference/api.html'));
const require = createRequire(import.meta.url);
const cliPackage = require.resolve('@redocly/cli/package.json');
const cli = join(
  dirname(cliPackage),
  (require(cliPackage) as { bin: Record<string, string> }).bin.redocly!,
);

const result = spawnSync(
  process.execPath,
  [
    cli,
    'build-docs',
    join(root, 'packages/client/openapi.json'),
    '--inlineBundle',
    '--title',
    'cspwatch API reference',
    '-o',
    output,
  ],
  { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, REDOCLY_TELEMETRY: 'off' } },
);
if (result.status !== 0) {
  process.stderr.write(result.stderr);
  process.exit(result.status ?? 1);
}
console.log(`wrote ${output}`);
