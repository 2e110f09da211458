import { describe, expect, expectTypeOf, it } from 'vitest';
import { ApiKeyPageSchema, ApiKeySchema } from './api-key';
import { ProblemSchema } from './problem';
import { EXACT_COUNT_MESSAGE } from './text-rules';
import { WebsiteSchema } from './website';

const key = {
  id: 'key_1',
  workspaceId: 'ws_1',
  name: 'CI',
  prefix: 'cwk_1',
  createdBy: 'usr_1',
  createdByUser: { id: 'usr_1', email: 'a@b.example', firstName: 'A', lastName: 'B', picture: 'p' },
  allowedIps: [],
  expiresAt: null,
  lastUsedAt: '2026-01-01T00:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const website = {
  id: 'web_1',
  workspaceId: 'ws_1',
  name: 'Shop',
  url: 'https://shop.example.com',
  endpointUrl: 'https://api.example/reports/1',
  endpointEnabled: true,
  usageLimit: 100,
  settings: {
    allowedOrigins: [],
    dropQueryAndFragments: false,
    dropReferrer: false,
    dropReportsFromExtensions: true,
  },
  role: 'manager',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const page = (pagination: Record<string, unknown>) => ({
  data: [key],
  pagination: { nextCursor: null, hasMore: false, total: 1, ...pagination },
});

describe('response schemas (open)', () => {
  it('keep unknown fields at every level', () => {
    const grown = { ...website, plan: 'pro', settings: { ...website.settings, sampling: 0.5 } };
    expect(WebsiteSchema.parse(grown)).toEqual(grown);
    const grownPage = {
      data: [{ ...key, scopes: ['read'], createdByUser: { ...key.createdByUser, locale: 'fr' } }],
      pagination: { nextCursor: null, hasMore: false, total: 1, pages: 1 },
      links: {},
    };
    expect(ApiKeyPageSchema.parse(grownPage)).toEqual(grownPage);
  });

  it('accept any role and any problem code, and type them as strings', () => {
    expect(WebsiteSchema.parse({ ...website, role: 'owner' }).role).toBe('owner');
    expectTypeOf(WebsiteSchema.parse(website).role).toBeString();
    const problem = {
      type: 'about:blank',
      title: 'Teapot',
      status: 418,
      detail: 'short and stout',
      code: 'i_am_a_teapot',
      trace: 'abc',
    };
    expect(ProblemSchema.parse(problem)).toEqual(problem);
  });

  it('accept any integer usageLimit: negative, zero and beyond 2^53', () => {
    for (const usageLimit of [-1, 0, -(2 ** 60), 1e21, Number.MAX_SAFE_INTEGER + 2])
      expect(WebsiteSchema.parse({ ...website, usageLimit }).usageLimit).toBe(usageLimit);
  });

  it('let expiresAt, lastUsedAt and nextCursor be null or absent', () => {
    const { expiresAt: _, lastUsedAt: __, ...withoutDates } = key;
    expect(ApiKeySchema.parse(withoutDates)).toEqual(withoutDates);
    expect(ApiKeySchema.parse({ ...key, lastUsedAt: null }).lastUsedAt).toBeNull();
    const { nextCursor: ___, ...noCursor } = page({}).pagination;
    expect(ApiKeyPageSchema.parse({ data: [], pagination: noCursor }).pagination).toEqual(noCursor);
    expectTypeOf(ApiKeySchema.parse(key).expiresAt).toEqualTypeOf<string | null | undefined>();
  });

  it('read a total up to 2^53 - 1 exactly, negative too', () => {
    for (const total of [0, -1, Number.MAX_SAFE_INTEGER])
      expect(ApiKeyPageSchema.parse(page({ total })).pagination.total).toBe(total);
  });

  it('refuse a total beyond 2^53 - 1, naming the field and saying why', () => {
    // 2^53 + 1 in the JSON text: JSON.parse rounds it to 2^53, which is no longer exact.
    const parsed = JSON.parse(
      JSON.stringify(page({ total: 0 })).replace('"total":0', '"total":9007199254740993'),
    );
    for (const body of [parsed, page({ total: 2 ** 60 }), page({ total: 1.5 })]) {
      const result = ApiKeyPageSchema.safeParse(body);
      expect(result.success).toBe(false);
      expect(result.error?.issues).toEqual([
        expect.objectContaining({ path: ['pagination', 'total'], message: EXACT_COUNT_MESSAGE }),
      ]);
    }
    expect(EXACT_COUNT_MESSAGE).toContain('2^53 - 1');
  });

  it('still refuse what breaks the documented types', () => {
    for (const broken of [
      { ...key, id: 1 },
      { ...key, allowedIps: 'any' },
      { ...key, createdByUser: null },
      { ...key, expiresAt: 5 },
    ])
      expect(ApiKeySchema.safeParse(broken).success).toBe(false);
    for (const broken of [
      { ...website, usageLimit: 1.5 },
      { ...website, usageLimit: '100' },
      { ...website, role: 7 },
      { ...website, endpointUrl: undefined },
    ])
      expect(WebsiteSchema.safeParse(broken).success).toBe(false);
  });
});
