import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from '@cspwatch/webhook-sender/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRIGGER_COMMAND } from './trigger-command';

const io = {} as CliIo;
const payload = (values: Record<string, string>) => TRIGGER_COMMAND.payload(values, io);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cspwatch-trigger-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('cspwatch-mock trigger payload', () => {
  it('builds the sample alert with the flags applied', async () => {
    const { payload: alert, what } = await payload({
      directive: 'frame-src',
      origin: 'https://ads.example',
      rule: 'Ads',
    });
    expect(what).toBe('csp-violation:new-type alert');
    expect(alert).toMatchObject({
      rule: 'Ads',
      findings: [{ effectiveDirective: 'frame-src', blockedUrlOrigin: 'https://ads.example' }],
    });
  });

  it('reads an alert file, and refuses it together with the sample flags', async () => {
    const sample = (await payload({})).payload;
    const path = join(dir, 'alert.json');
    await writeFile(path, JSON.stringify({ ...sample, id: undefined, rule: 'From file' }));
    expect((await payload({ 'alert-file': path })).payload).toMatchObject({ rule: 'From file' });
    await expect(payload({ 'alert-file': path, rule: 'x' })).rejects.toThrow(
      '--alert-file excludes --directive, --origin, --rule and --website-url',
    );
    await expect(payload({ 'alert-file': join(dir, 'missing.json') })).rejects.toThrow(
      /^--alert-file: cannot read \S+missing\.json \(ENOENT\)$/,
    );
    await writeFile(join(dir, 'bad.json'), '{');
    await expect(payload({ 'alert-file': join(dir, 'bad.json') })).rejects.toThrow(
      /is not valid JSON/,
    );
  });

  it('names the flag behind an invalid field of the sample alert', async () => {
    await expect(payload({ 'website-url': 'ftp://x' })).rejects.toThrow(/^--website-url /);
  });
});
