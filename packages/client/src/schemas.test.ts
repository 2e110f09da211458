import { describe, expect, it } from 'vitest';
import { makeApiKey, makeWebsite } from '../test/fixtures';
import { ApiKeyPageSchema, ApiKeySchema, CreateWebsiteInputSchema, WebsiteSchema } from './schemas';

describe('response schemas', () => {
  it('keep unknown fields, also in nested objects', () => {
    const key = ApiKeySchema.parse(
      makeApiKey(1, {
        scopes: ['read'],
        createdByUser: { ...makeApiKey(1).createdByUser, locale: 'fr' },
      }),
    );
    expect(key.scopes).toEqual(['read']);
    expect(key.createdByUser.locale).toBe('fr');
    const page = ApiKeyPageSchema.parse({
      data: [],
      pagination: { hasMore: false, total: 0, pageSize: 50 },
      links: {},
    });
    expect(page.pagination.pageSize).toBe(50);
    expect(page.links).toEqual({});
  });

  it('accept null or absent expiresAt, lastUsedAt and nextCursor', () => {
    const { expiresAt: _e, lastUsedAt: _l, ...withoutDates } = makeApiKey(1);
    expect(ApiKeySchema.safeParse(withoutDates).success).toBe(true);
    expect(
      ApiKeySchema.safeParse(makeApiKey(1, { expiresAt: null, lastUsedAt: null })).success,
    ).toBe(true);
    expect(
      ApiKeyPageSchema.safeParse({
        data: [],
        pagination: { nextCursor: null, hasMore: false, total: 0 },
      }).success,
    ).toBe(true);
  });

  it('accept any role string', () => {
    for (const role of ['viewer', 'manager', 'owner', 'some-future-role']) {
      expect(WebsiteSchema.parse(makeWebsite({ role })).role).toBe(role);
    }
  });

  it('fail on what breaks the documented shape', () => {
    expect(ApiKeySchema.safeParse(makeApiKey(1, { id: 7 })).success).toBe(false);
    expect(ApiKeySchema.safeParse(makeApiKey(1, { allowedIps: '1.2.3.4' })).success).toBe(false);
    expect(
      ApiKeyPageSchema.safeParse({ data: [], pagination: { hasMore: 'no', total: 0 } }).success,
    ).toBe(false);
    expect(
      ApiKeyPageSchema.safeParse({ data: [], pagination: { hasMore: false, total: '1' } }).success,
    ).toBe(false);
    expect(WebsiteSchema.safeParse(makeWebsite({ endpointUrl: undefined })).success).toBe(false);
    expect(WebsiteSchema.safeParse(makeWebsite({ usageLimit: 1.5 })).success).toBe(false);
  });
});

describe('integers in responses', () => {
  it('read any usageLimit the service may send: negative, zero, beyond 2^53', () => {
    for (const usageLimit of [-1, 0, 1e21, -(2 ** 60)])
      expect(WebsiteSchema.parse(makeWebsite({ usageLimit })).usageLimit).toBe(usageLimit);
    expect(
      WebsiteSchema.parse(JSON.parse(JSON.stringify(makeWebsite({ usageLimit: 1e21 })))),
    ).toMatchObject({ usageLimit: 1e21 });
  });

  it('read a total exactly up to 2^53 - 1, and refuse a larger one naming the field and why', () => {
    const page = (total: unknown) => ({ data: [], pagination: { hasMore: false, total } });
    for (const total of [-1, 0, Number.MAX_SAFE_INTEGER])
      expect(ApiKeyPageSchema.parse(page(total)).pagination.total).toBe(total);
    const beyond = JSON.parse(
      '{"data":[],"pagination":{"hasMore":false,"total":9007199254740993}}',
    );
    const result = ApiKeyPageSchema.safeParse(beyond);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ['pagination', 'total'],
        message: expect.stringContaining('the largest a JavaScript number holds exactly'),
      }),
    ]);
  });
});

describe('CreateWebsiteInputSchema', () => {
  it('applies the documented limits', () => {
    const ok = (input: unknown) => CreateWebsiteInputSchema.safeParse(input).success;
    expect(ok({ name: 'a', url: 'https://a.example' })).toBe(true);
    expect(ok({ name: 'a'.repeat(255), url: `https://a.example/${'x'.repeat(2048 - 18)}` })).toBe(
      true,
    );
    expect(ok({ name: 'a'.repeat(256), url: 'https://a.example' })).toBe(false);
    expect(ok({ name: '', url: 'https://a.example' })).toBe(false);
    expect(ok({ name: 'a', url: `https://a.example/${'x'.repeat(2048 - 17)}` })).toBe(false);
    expect(ok({ name: 'a', url: 'example.com' })).toBe(false);
    expect(ok({ name: 'a', url: ' https://a.example' })).toBe(false);
    // Requests are strict at every level (the contract's rule, shared with the service).
    expect(ok({ name: 'a', url: 'https://a.example', settings: { futureFlag: true } })).toBe(false);
    expect(ok({ name: 'a', url: 'https://a.example', nmae: 'typo' })).toBe(false);
  });
});

describe('character counting', () => {
  it('counts name length in code points, like the service', () => {
    const emoji = '😀'.repeat(255);
    expect(
      CreateWebsiteInputSchema.safeParse({ name: emoji, url: 'https://a.example' }).success,
    ).toBe(true);
    expect(
      CreateWebsiteInputSchema.safeParse({ name: `${emoji}😀`, url: 'https://a.example' }).success,
    ).toBe(false);
  });
  it('refuses URLs with characters outside RFC 3986', () => {
    expect(CreateWebsiteInputSchema.safeParse({ name: 'a', url: 'https://例え.jp/' }).success).toBe(
      false,
    );
    expect(
      CreateWebsiteInputSchema.safeParse({ name: 'a', url: 'https://xn--r8jz45g.jp/%E4%BE%8B' })
        .success,
    ).toBe(true);
  });
});
