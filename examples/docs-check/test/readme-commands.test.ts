import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  packageManager: string;
  scripts: Record<string, string>;
};
const pnpmVersion = manifest.packageManager.replace(/^pnpm@/, '');

/**
 * pnpm commands that win over a same-named script (pnpm runs its own, or npm's), so a
 * README line `pnpm <name>` must never rely on a script of that name.
 */
const PNPM_BUILTINS = new Set([
  'add', 'audit', 'bin', 'config', 'deploy', 'dlx', 'docs', 'exec', 'fetch', 'help', 'import',
  'info', 'init', 'install', 'licenses', 'link', 'list', 'ls', 'outdated', 'owner', 'pack',
  'patch', 'prune', 'publish', 'rebuild', 'remove', 'repo', 'root', 'run', 'search', 'setup',
  'store', 'unlink', 'update', 'version', 'view', 'why',
]); // biome-ignore format: a word list reads better packed

/** Every `pnpm <name>` written in inline code or a code block of the README. */
function readmePnpmCommands(): string[] {
  const names = new Set<string>();
  for (const match of readme.matchAll(/(?:`|^|&& )(?:npx -y pnpm@[\d.]+|pnpm) ([a-z][\w:-]*)/gm)) {
    names.add(match[1] as string);
  }
  return [...names];
}

describe("the README's commands", () => {
  it('quick start: install + demo, then test, with the pinned pnpm through npx', () => {
    const block = /## Quick start[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const commands = block
      .split('\n')
      .map((line) => line.replace(/#.*$/, '').trim())
      .filter(Boolean);
    expect(commands).toEqual([
      `npx -y pnpm@${pnpmVersion} install && npx -y pnpm@${pnpmVersion} demo`,
      `npx -y pnpm@${pnpmVersion} test`,
    ]);
  });

  it('every `pnpm <name>` it mentions is a root script that no pnpm built-in shadows', () => {
    const names = readmePnpmCommands().filter((name) => name !== 'install');
    expect(names).toContain('demo');
    for (const name of names) {
      expect(PNPM_BUILTINS.has(name), `pnpm ${name} runs pnpm's own command`).toBe(false);
      expect(manifest.scripts[name], `pnpm ${name} is not a script`).toBeTypeOf('string');
    }
  });

  it('CI runs the test command the README gives', () => {
    const ci = readFileSync(join(root, '.ci', 'run'), 'utf8');
    expect(ci).toMatch(/^pnpm test$/m);
  });

  // `pnpm demo` is "build quietly, then run the demo". `pnpm test` has built every package
  // before the unit tests, so this runs the rest of the command exactly as the script has it
  // (rebuilding here would race the tests that read dist/).
  const [buildStep, demoStep] = (manifest.scripts.demo ?? '').split(' && ');
  const built = existsSync(join(root, 'packages', 'mock-server', 'dist', 'index.js'));

  it.skipIf(!built)(
    'pnpm demo runs the story and exits 0',
    { timeout: budget(120_000) },
    async () => {
      expect(buildStep).toBe('node scripts/run-quietly.mjs build pnpm build');
      const [command, ...args] = (demoStep ?? '').split(' ');
      const { stdout } = await run(command as string, args, {
        cwd: root,
        env: { ...process.env, NO_COLOR: '1' },
        timeout: 110_000,
      });
      expect(stdout).toContain('cspwatch SDK demo');
      expect(stdout).toMatch(/x-cspwatch-signature: sha256=[0-9a-f]{64}/);
      expect(stdout).toContain('channel disabled');
      expect(stdout).not.toMatch(/whsec_|FAIL|✘/);
    },
  );
});
