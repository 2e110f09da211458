import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseCliOptions } from './options';

describe('parseCliOptions', () => {
  it('maps every flag to its option', () => {
    const argv = [
      '--port',
      '0',
      '--host',
      '::1',
      '--seed',
      '9',
      '--api-keys',
      '3',
      '--website-limit',
      '2',
      '--latency',
      '5',
      '--rate-limit-every',
      '4',
      '--retry-after',
      '2',
      '--server-error-rate',
      '0.25',
      '--server-error-status',
      '500',
      '--drop-connection-rate',
      '.1',
    ];
    expect(parseCliOptions(argv, parseArgs)).toEqual({
      kind: 'start',
      options: {
        port: 0,
        host: '::1',
        seed: 9,
        apiKeyCount: 3,
        websiteLimit: 2,
        faults: {
          latencyMs: 5,
          rateLimitEvery: 4,
          retryAfterSeconds: 2,
          serverErrorRate: 0.25,
          serverErrorStatus: 500,
          dropConnectionRate: 0.1,
        },
      },
      logRequests: true,
    });
  });

  it('defaults to port 4010 with no faults', () => {
    expect(parseCliOptions([], parseArgs)).toEqual({
      kind: 'start',
      options: { port: 4010 },
      logRequests: true,
    });
  });

  it('asks for help with --help or -h', () => {
    expect(parseCliOptions(['-h'], parseArgs)).toEqual({ kind: 'help' });
  });

  it.each([
    [['--port', 'abc'], '--port must be an integer from 0 to 65535 (got a string)'],
    [['--port', '99999'], '--port must be an integer from 0 to 65535 (got 99999)'],
    [['--port', '1.5'], '--port must be an integer from 0 to 65535 (got a string)'],
    [
      ['--server-error-rate', '1e-3'],
      '--server-error-rate must be a number from 0 to 1 (got a string)',
    ],
    [['--unknown'], 'unknown option --unknown'],
    [['--port'], '--port needs a value, e.g. --port <value>'],
    [['--quiet=yes'], '--quiet takes no value; give it alone'],
    [['positional'], expect.stringMatching(/^unexpected argument \(not shown\)/)],
  ])('refuses %j with one message that names the flag', (argv, message) => {
    expect(parseCliOptions(argv, parseArgs)).toEqual({ kind: 'error', message });
  });
});
