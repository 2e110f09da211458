import { describe, expect, it } from 'vitest';
import { readConfig } from '../src/config';

describe('readConfig', () => {
  it('reads the secret, port and host with defaults', () => {
    expect(readConfig({ CSPWATCH_WEBHOOK_SECRET: 'whsec_12345678' })).toEqual({
      secret: 'whsec_12345678',
      port: 3000,
      host: '127.0.0.1',
    });
    expect(
      readConfig({ CSPWATCH_WEBHOOK_SECRET: 'whsec_12345678', PORT: '0', HOST: '::1' }),
    ).toMatchObject({
      port: 0,
      host: '::1',
    });
  });

  it('fails clearly without the secret', () => {
    expect(() => readConfig({})).toThrow('Set CSPWATCH_WEBHOOK_SECRET');
    expect(() => readConfig({ CSPWATCH_WEBHOOK_SECRET: '' })).toThrow(
      'Set CSPWATCH_WEBHOOK_SECRET',
    );
  });

  it('refuses a short secret without echoing it', () => {
    let message = '';
    try {
      readConfig({ CSPWATCH_WEBHOOK_SECRET: 'abc1234' });
    } catch (caught) {
      message = (caught as Error).message;
    }
    expect(message).toMatch(/at least 8 characters/);
    expect(message).not.toContain('abc1234');
  });

  it.each(['', 'x', '3.5', '-1', '65536'])('refuses PORT=%j', (port) => {
    expect(() => readConfig({ CSPWATCH_WEBHOOK_SECRET: 'whsec_12345678', PORT: port })).toThrow(
      'PORT must be an integer from 0 to 65535',
    );
  });
});
