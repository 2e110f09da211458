/**
 * The rough edges of `cspwatch-mock` a newcomer hits, run as the real (built) command:
 * --version, the request log and --quiet, the quoted curl line, a port in use, and option
 * errors that name the flag typed (exit 2).
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';
import { createCliRunner } from './spawn-cli';

const cli = createCliRunner();
const run = (args: string[]) => cli.run(args, { NO_COLOR: '1' });
const servers: Server[] = [];

afterEach(async () => {
  cli.killAll();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function started(args: string[]) {
  const cli = run(['--port', '0', '--api-keys', '3', ...args]);
  await expect.poll(cli.output, { timeout: budget(15_000) }).toContain('Press Ctrl-C to stop.');
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(cli.output())?.[1] as string;
  return { ...cli, url };
}

describe('cspwatch-mock rough edges', () => {
  it('prints its version', async () => {
    const { child, output } = run(['--version']);
    expect((await once(child, 'exit'))[0]).toBe(0);
    expect(output()).toMatch(/^cspwatch-mock \d+\.\d+\.\d+\n$/);
  });

  it(
    'logs one line per request, and prints a curl line a shell runs as is',
    async () => {
      const { url, output } = await started([]);
      const curl = /^ {2}(curl .+)$/m.exec(output())?.[1] as string;
      expect(curl).toMatch(/^curl -H 'Authorization: Bearer [^']+' 'http:\/\/[^']+\?limit=2'$/);
      // The quoted line survives a shell: the one argument with `?` reaches curl unglobbed.
      const args = await promisify(execFile)('sh', [
        '-c',
        curl.replace(/^curl /, 'printf "%s\\n" '),
      ]);
      expect(args.stdout.split('\n')[2]).toMatch(/\/api-keys\?limit=2$/);
      await fetch(`${url}/v1/workspaces/nope/api-keys`);
      await expect
        .poll(output, { timeout: budget(5_000) })
        .toMatch(/^GET \/v1\/workspaces\/nope\/api-keys 401 \d+ ms$/m);
    },
    budget(20_000),
  );

  it(
    'logs nothing per request with --quiet',
    async () => {
      const { url, output } = await started(['--quiet']);
      await fetch(`${url}/v1/workspaces/nope/api-keys`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(output()).not.toMatch(/^GET /m);
    },
    budget(20_000),
  );

  it(
    'says to try --port 0 when the port is in use (exit 1)',
    async () => {
      const holder = createServer();
      servers.push(holder);
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      const { port } = holder.address() as { port: number };
      const { child, errors } = run(['--port', String(port)]);
      expect((await once(child, 'exit'))[0]).toBe(1);
      expect(errors()).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(errors()).toContain('--port 0 for a free one');
    },
    budget(20_000),
  );

  it.each([
    [
      ['--website-limit', '-1'],
      /^error: --website-limit must be an integer from 0 to 100000 \(got -1\); see cspwatch-mock --help\n$/,
    ],
    [
      ['--server-error-rate', '2'],
      /^error: --server-error-rate must be a number from 0 to 1 \(got 2\); see cspwatch-mock --help\n$/,
    ],
  ])(
    'exits 2 and names the flag typed: %j',
    async (args, message) => {
      const { child, errors } = run(args);
      expect((await once(child, 'exit'))[0]).toBe(2);
      expect(errors()).toMatch(message);
    },
    20_000,
  );
});
