import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';
import { createCliRunner } from './spawn-cli';

const cli = createCliRunner();
const run = (args: string[]) => cli.run(args);

afterEach(() => {
  cli.killAll();
});

describe('cspwatch-mock', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'starts, prints URL, workspace ids and tokens, serves them, and stops cleanly on %s',
    async (signal) => {
      const { child, output } = run(['--port', '0', '--api-keys', '3', '--seed', '5']);
      await expect.poll(output, { timeout: budget(15_000) }).toContain('Press Ctrl-C to stop.');
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output())?.[1];
      const workspace = /^ {2}main +(\S+)$/m.exec(output())?.[1];
      const admin = /^ {2}admin +(\S+)$/m.exec(output())?.[1];
      const response = await fetch(`${url}/v1/workspaces/${workspace}/api-keys`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(response.status).toBe(200);
      expect((await response.json()).pagination.total).toBe(3);
      child.kill(signal);
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
      expect(output()).toContain('stopped');
    },
    20_000,
  );

  it(
    'prints help and exits 0; refuses a bad flag with exit code 2',
    async () => {
      const help = run(['--help']);
      expect((await once(help.child, 'exit'))[0]).toBe(0);
      expect(help.output()).toContain('--rate-limit-every');
      expect(help.output()).toContain('cspwatch-mock trigger');
      const triggerHelp = run(['trigger', '--help']);
      expect((await once(triggerHelp.child, 'exit'))[0]).toBe(0);
      expect(triggerHelp.output()).toContain('--secret-env');
      const bad = run(['--api-keys', 'many']);
      expect((await once(bad.child, 'exit'))[0]).toBe(2);
      expect(bad.errors()).toContain('--api-keys');
      const outOfRange = run(['--port', '99999']);
      expect((await once(outOfRange.child, 'exit'))[0]).toBe(2);
      expect(outOfRange.errors()).toContain('port must be an integer from 0 to 65535');
      expect(outOfRange.output()).toBe('');
    },
    budget(20_000),
  );
});
