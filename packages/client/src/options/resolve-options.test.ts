import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCspwatchClient } from '../create-client';
import { CspwatchInputError } from '../errors/input-error';
import { type CspwatchClientOptions, DEFAULT_CLIENT_OPTIONS } from './client-options';
import { resolveOptions } from './resolve-options';

afterEach(() => vi.unstubAllEnvs());

function fieldsOf(options: unknown): string[] {
  try {
    resolveOptions(options as CspwatchClientOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(CspwatchInputError);
    expect((error as CspwatchInputError).code).toBe('invalid_options');
    return (error as CspwatchInputError).fields.map((field) => field.path);
  }
  return [];
}

describe('client options', () => {
  it('requires a base URL, from the option or CSPWATCH_BASE_URL', () => {
    vi.stubEnv('CSPWATCH_BASE_URL', '');
    expect(() => createCspwatchClient({ token: 't' })).toThrow(/CSPWATCH_BASE_URL/);
    vi.stubEnv('CSPWATCH_BASE_URL', 'https://env.cspwatch.test/');
    expect(resolveOptions({ token: 't' }).baseUrl).toBe('https://env.cspwatch.test');
    expect(resolveOptions({ token: 't', baseUrl: 'http://127.0.0.1:8080/api/' }).baseUrl).toBe(
      'http://127.0.0.1:8080/api',
    );
  });

  it('applies the documented defaults', () => {
    const resolved = resolveOptions({ token: 't', baseUrl: 'https://a.test' });
    expect(resolved).toMatchObject({
      timeout: 30_000,
      totalTimeout: 120_000,
      maxRetries: 2,
      retryAfterCap: 60_000,
    });
    expect(Object.isFrozen(DEFAULT_CLIENT_OPTIONS)).toBe(true);
  });

  it('names every invalid option', () => {
    expect(fieldsOf({ baseUrl: 'ftp://a.test', token: '' })).toEqual(['baseUrl', 'token']);
    expect(fieldsOf({ baseUrl: 'not a url', token: 'a b' })).toEqual(['baseUrl', 'token']);
    expect(fieldsOf({ baseUrl: 'https://a.test?x=1', token: 42 })).toEqual(['baseUrl', 'token']);
    expect(
      fieldsOf({
        baseUrl: 'https://a.test',
        token: 't',
        timeout: 0,
        totalTimeout: 1.5,
        maxRetries: -1,
        retryAfterCap: Number.NaN,
      }),
    ).toEqual(['timeout', 'totalTimeout', 'retryAfterCap', 'maxRetries']);
    expect(fieldsOf({ baseUrl: 'https://a.test', token: 't', fetch: 'fetch', logger: 1 })).toEqual([
      'fetch',
      'logger',
    ]);
    expect(
      fieldsOf({
        baseUrl: 'https://a.test',
        token: 't',
        headers: { Authorization: 'Bearer x', 'bad name': 'v', 'x-ok': 'a\r\nb' },
      }),
    ).toEqual(['headers.Authorization', 'headers.bad name', 'headers.x-ok']);
    expect(fieldsOf(undefined)).toContain('token');
  });

  it('never puts the token in an options error', () => {
    const token = 'secret with space';
    expect(() => resolveOptions({ baseUrl: 'https://a.test', token })).toThrow(CspwatchInputError);
    try {
      resolveOptions({ baseUrl: 'https://a.test', token });
    } catch (error) {
      expect(String(error)).not.toContain(token);
    }
  });
});
