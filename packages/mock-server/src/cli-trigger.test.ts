import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { describeTrigger, parseTriggerOptions } from './cli-trigger';

const env = { HOOK_SECRET: 'whsec-0123456789' };
const parse = (argv: string[], files: Record<string, string> = {}) =>
  parseTriggerOptions(argv, parseArgs, env, (path) => {
    const text = files[path];
    if (text === undefined) throw new Error(`ENOENT: no such file, open '${path}'`);
    return text;
  });

describe('parseTriggerOptions', () => {
  it('builds the sample alert, with flags applied, and reads the secret from the variable', () => {
    const parsed = parse([
      '--to',
      'http://localhost:3000/hooks',
      '--secret-env',
      'HOOK_SECRET',
      '--directive',
      'frame-src',
      '--origin',
      'https://ads.example',
      '--rule',
      'Ads',
      '--timeout',
      '2500',
    ]);
    expect(parsed).toMatchObject({
      kind: 'trigger',
      to: 'http://localhost:3000/hooks',
      secret: env.HOOK_SECRET,
      timeoutMs: 2500,
      input: {
        rule: 'Ads',
        findings: [{ effectiveDirective: 'frame-src', blockedUrlOrigin: 'https://ads.example' }],
      },
    });
  });

  it('reads an alert file, and refuses it together with the sample flags', () => {
    const files = { 'alert.json': JSON.stringify({ rule: 'From file' }) };
    const base = ['--to', 'http://localhost/x', '--secret-env', 'HOOK_SECRET'];
    expect(parse([...base, '--alert-file', 'alert.json'], files)).toMatchObject({
      kind: 'trigger',
      input: { rule: 'From file' },
    });
    expect(parse([...base, '--alert-file', 'alert.json', '--rule', 'x'], files)).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('excludes'),
    });
    expect(parse([...base, '--alert-file', 'missing.json'])).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('ENOENT'),
    });
    expect(parse([...base, '--alert-file', 'bad.json'], { 'bad.json': '{' })).toMatchObject({
      kind: 'error',
    });
  });

  it.each([
    [[], /--to/],
    [['--to', 'http://localhost/x'], /--secret-env/],
    [['--to', 'http://localhost/x', '--secret-env', 'UNSET'], /UNSET is not set/],
    [['--to', 'http://localhost/x', '--secret-env', 'HOOK_SECRET', '--timeout', '0'], /--timeout/],
    [['--to', 'http://localhost/x', '--secret', 'inline'], /Unknown option/],
  ])('refuses %j with what to fix', (argv, message) => {
    const parsed = parse(argv as string[]);
    expect(parsed).toMatchObject({ kind: 'error', message: expect.stringMatching(message) });
    expect(JSON.stringify(parsed)).not.toContain(env.HOOK_SECRET);
  });
});

describe('describeTrigger', () => {
  it('strips control characters from what the handler sent', () => {
    const text = describeTrigger('http://localhost/x', {
      alert: { id: 'a1', eventType: 'csp-violation:new-type' } as never,
      result: {
        ok: false,
        status: 302,
        cause: 'redirect',
        location: 'https://x.example/\u001b[31m',
        responseExcerpt: 'bad\u001b]0;title\u0007',
        error: null,
        rejection: null,
      } as never,
    });
    expect(text).toContain('✘ redirect 302');
    expect(text).toContain('(not followed)');
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u0007');
  });
});
