import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MockServerError } from '../errors';
import { nameFlags, parseCliOptions, requestLine, startWarnings } from './options';

describe('cspwatch-mock command line', () => {
  it('logs one line per request, the status coloured only when asked', () => {
    const entry = { method: 'GET', path: '/v1/x?limit=2', status: 404, durationMs: 3 };
    expect(requestLine(entry, false)).toBe('GET /v1/x?limit=2 404 3 ms\n');
    expect(requestLine(entry, true)).toBe('GET /v1/x?limit=2 \u001b[33m404\u001b[0m 3 ms\n');
    expect(requestLine({ ...entry, status: 201 }, true)).toContain('\u001b[32m201');
    expect(requestLine({ ...entry, status: 503 }, true)).toContain('\u001b[31m503');
    expect(requestLine({ ...entry, path: '/\u001b[2J' }, false)).toBe('GET /?[2J 404 3 ms\n');
  });

  it('warns when bound beyond loopback, not on loopback', () => {
    expect(startWarnings({ host: '0.0.0.0' })).toEqual([
      expect.stringMatching(/^WARNING: listening on 0\.0\.0\.0, reachable from other machines/),
    ]);
    for (const host of ['127.0.0.1', '::1', 'localhost', undefined]) {
      expect(startWarnings(host === undefined ? {} : { host })).toEqual([]);
    }
  });

  it('names the flag the user typed in option errors', () => {
    const refused = (path: string, message: string) =>
      new MockServerError('invalid_options', `Invalid options: ${path}: ${message}.`, {
        issues: [{ path, code: 'out_of_range', message }],
      });
    expect(
      nameFlags(refused('faults.serverErrorRate', 'must be a number from 0 to 1, got 2')),
    ).toBe('--server-error-rate must be a number from 0 to 1 (got 2)');
    expect(nameFlags(refused('apiKeyCount', 'must be an integer from 0 to 100000, got -1'))).toBe(
      '--api-keys must be an integer from 0 to 100000 (got -1)',
    );
    expect(
      nameFlags(refused('websiteLimit', 'must be an integer from 0 to 100000, got -1')),
    ).toMatch(/^--website-limit must/);
    expect(nameFlags(refused('port', 'must be an integer from 0 to 65535, got 70000'))).toMatch(
      /^--port /,
    );
  });

  it('parses negative numbers as values, refused by the option checks, --quiet and --version', () => {
    expect(parseCliOptions(['--website-limit', '-1'], parseArgs)).toEqual({
      kind: 'error',
      message: '--website-limit must be an integer from 0 to 100000 (got -1)',
    });
    expect(parseCliOptions(['--latency', '-5', '--quiet'], parseArgs)).toEqual({
      kind: 'error',
      message: '--latency must be an integer from 0 to 60000 (ms) (got -5)',
    });
    expect(parseCliOptions(['--latency', '5', '--quiet'], parseArgs)).toMatchObject({
      kind: 'start',
      options: { faults: { latencyMs: 5 } },
      logRequests: false,
    });
    expect(parseCliOptions(['--version'], parseArgs)).toEqual({ kind: 'version' });
    expect(parseCliOptions(['-v'], parseArgs)).toEqual({ kind: 'version' });
  });
});
