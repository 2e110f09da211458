import { describe, expect, it } from 'vitest';
import { describeNetworkError } from './network-error';

const systemError = (fields: Record<string, unknown>) =>
  Object.assign(new Error(String(fields.message ?? 'x')), fields);

describe('describeNetworkError', () => {
  it('unwraps "fetch failed" down to the refused address', () => {
    const cause = systemError({
      code: 'ECONNREFUSED',
      address: '127.0.0.1',
      port: 1,
      message: 'connect ECONNREFUSED 127.0.0.1:1',
    });
    const error = new TypeError('fetch failed', { cause });
    expect(describeNetworkError(error)).toBe('connection refused (ECONNREFUSED 127.0.0.1:1)');
  });

  it('brackets an IPv6 address and names a host that does not resolve', () => {
    expect(
      describeNetworkError(systemError({ code: 'ECONNREFUSED', address: '::1', port: 8080 })),
    ).toBe('connection refused (ECONNREFUSED [::1]:8080)');
    expect(
      describeNetworkError(systemError({ code: 'ENOTFOUND', hostname: 'hooks.example.invalid' })),
    ).toBe('host not found (ENOTFOUND hooks.example.invalid)');
  });

  it('keeps the message of an unknown code, and of an error without one', () => {
    expect(describeNetworkError(systemError({ code: 'EWEIRD', message: 'odd failure' }))).toBe(
      'odd failure (EWEIRD)',
    );
    expect(describeNetworkError(new Error('socket hang up'))).toBe('socket hang up');
  });
});
