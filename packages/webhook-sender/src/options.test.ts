import { describe, expect, it } from 'vitest';
import { createWebhookSender } from './delivery/create-sender';
import { isWebhookSenderError, WebhookSenderError } from './errors';
import { DEFAULT_SENDER_OPTIONS, resolveSenderOptions } from './options';

function codesOf(options: unknown): string[] {
  try {
    createWebhookSender(options as never);
  } catch (error) {
    expect(isWebhookSenderError(error) && error.code).toBe('invalid_options');
    return (error as WebhookSenderError).issues.map((issue) => `${issue.path}:${issue.code}`);
  }
  throw new Error('expected invalid_options');
}

describe('sender options', () => {
  it('defaults to about ten seconds in all, https-only public targets and a 1 KiB excerpt', () => {
    const resolved = resolveSenderOptions();
    expect(resolved).toMatchObject({
      timeoutMs: 10_000,
      connectTimeoutMs: 5_000,
      maxResponseBodyBytes: 1024,
      dangerouslyAllowLoopback: false,
    });
    expect(Object.isFrozen(DEFAULT_SENDER_OPTIONS)).toBe(true);
    expect(resolveSenderOptions({ timeoutMs: 1000 }).connectTimeoutMs).toBe(1000);
  });

  it('refuses unknown keys, so a misspelt opt-in is loud', () => {
    expect(codesOf({ allowLoopback: true })).toEqual(['allowLoopback:unknown_option']);
    expect(codesOf({ rejectUnauthorized: false })).toEqual(['rejectUnauthorized:unknown_option']);
    expect(codesOf({ proxy: 'http://proxy:8080' })).toEqual(['proxy:unknown_option']);
  });

  it.each([
    [{ timeoutMs: 0 }, 'timeoutMs:out_of_range'],
    [{ timeoutMs: 1.5 }, 'timeoutMs:wrong_type'],
    [{ connectTimeoutMs: '5s' }, 'connectTimeoutMs:wrong_type'],
    [{ maxResponseBodyBytes: -1 }, 'maxResponseBodyBytes:out_of_range'],
    [{ userAgent: 'bad\r\nheader: x' }, 'userAgent:invalid'],
    [{ userAgent: '' }, 'userAgent:invalid'],
    [{ store: { get() {} } }, 'store:invalid'],
    [{ resolver: 'dns' }, 'resolver:wrong_type'],
    [{ now: 5 }, 'now:wrong_type'],
    [{ dangerouslyAllowLoopback: 'yes' }, 'dangerouslyAllowLoopback:wrong_type'],
  ])('refuses %o at construction', (options, expected) => {
    expect(codesOf(options)).toEqual([expected]);
  });

  it('says what to fix, with the value when it is a number and only its type otherwise', () => {
    expect(() => createWebhookSender({ timeoutMs: 0 })).toThrow(
      'invalid options: timeoutMs: must be an integer from 1 to 600000 (ms), got 0',
    );
    expect(() => createWebhookSender({ userAgent: 'ok', now: 'whsec_secret' as never })).toThrow(
      'invalid options: now: must be a function, got a string',
    );
    expect(codesOf({ timeoutMS: 5 })).toEqual(['timeoutMS:unknown_option']);
    expect(() => createWebhookSender({ timeoutMS: 5 } as never)).toThrow(
      'unknown option (did you mean `timeoutMs`?)',
    );
  });

  it('refuses a non-object', () => {
    expect(codesOf('fast')).toEqual(['(options):not_an_object']);
  });
});

describe('WebhookSenderError', () => {
  it('carries a literal name, the code, the issues and a marker that survives copies', () => {
    const error = new WebhookSenderError('invalid_alert', [
      { path: 'rule', code: 'required', message: 'must be a non-empty string' },
    ]);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('WebhookSenderError');
    expect(error.message).toBe('invalid alert: rule: must be a non-empty string');
    expect(isWebhookSenderError(error)).toBe(true);
    expect(isWebhookSenderError(new Error('x'))).toBe(false);
    expect(isWebhookSenderError({ code: 'invalid_alert' })).toBe(false);
    expect(
      isWebhookSenderError({ [Symbol.for('@cspwatch/webhook-sender.WebhookSenderError')]: true }),
    ).toBe(true);
  });
});
