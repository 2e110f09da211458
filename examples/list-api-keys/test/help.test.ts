import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const tsx = join(import.meta.dirname, '..', 'node_modules', '.bin', 'tsx');
const scripts = {
  'list-api-keys': join(import.meta.dirname, '..', 'src', 'main.ts'),
  'create-website': join(import.meta.dirname, '..', '..', 'create-website', 'src', 'main.ts'),
};

describe.each(Object.entries(scripts))('the %s script', (_, main) => {
  it('prints its usage and the environment it reads for --help, exit 0', async () => {
    const { stdout } = await run(tsx, [main, '--help'], { timeout: 30_000 });
    expect(stdout).toMatch(/^Usage: pnpm start /);
    expect(stdout).toContain('CSPWATCH_BASE_URL');
    expect(stdout).toContain('-h, --help');
  });

  it('exits 2 with the usage on an unknown flag, and sends nothing', async () => {
    const failure = await run(tsx, [main, '--bogus'], { timeout: 30_000 }).catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain("Unknown option '--bogus'");
    expect(failure.stderr).toContain('Usage: pnpm start');
    expect(failure.stdout).toBe('');
  });
});
