import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod/mini';
import { ApiKeyPageSchema, ApiKeySchema } from './api-key';
import { forwardCompatible } from './forward-compatible';
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

describe('forwardCompatible', () => {
  const LooseKey = forwardCompatible(ApiKeySchema);
  const LooseWebsite = forwardCompatible(WebsiteSchema);

  it('accepts what the strict schema accepts, unchanged', () => {
    expect(ApiKeySchema.parse(key)).toEqual(key);
    expect(LooseKey.parse(key)).toEqual(key);
    expect(LooseWebsite.parse(website)).toEqual(website);
  });

  it('keeps unknown fields at every level, where the strict schema refuses them', () => {
    const grown = {
      ...website,
      plan: 'pro',
      settings: { ...website.settings, sampling: 0.5 },
    };
    expect(WebsiteSchema.safeParse(grown).success).toBe(false);
    expect(LooseWebsite.parse(grown)).toEqual(grown);
    const page = {
      data: [{ ...key, scopes: ['read'] }],
      pagination: { nextCursor: null, hasMore: false, total: 1, pages: 1 },
    };
    expect(forwardCompatible(ApiKeyPageSchema).parse(page)).toEqual(page);
  });

  it('accepts unknown enum values and other date-time spellings', () => {
    const Strict = z.strictObject({ role: z.enum(['manager', 'viewer']), at: z.iso.datetime() });
    const Loose = forwardCompatible(Strict);
    const grown = { role: 'owner', at: '2026-01-01T01:00:00+01:00' };
    expect(Strict.safeParse(grown).success).toBe(false);
    expect(Loose.parse(grown)).toEqual(grown);
    expectTypeOf(Loose.parse(grown).role).toBeString();
    expect(LooseWebsite.parse({ ...website, role: 'owner' }).role).toBe('owner');
  });

  it('lets a nullable field be absent too', () => {
    const { expiresAt: _, lastUsedAt: __, ...withoutDates } = key;
    expect(ApiKeySchema.safeParse(withoutDates).success).toBe(false);
    expect(LooseKey.parse(withoutDates)).toEqual(withoutDates);
  });

  it('still refuses what breaks the documented shape', () => {
    for (const broken of [
      { ...key, id: 1 },
      { ...key, allowedIps: 'any' },
      { ...key, createdByUser: null },
      { ...key, expiresAt: 5 },
    ])
      expect(LooseKey.safeParse(broken).success).toBe(false);
    expect(LooseWebsite.safeParse({ ...website, usageLimit: 1.5 }).success).toBe(false);
    expect(LooseWebsite.safeParse({ ...website, role: 7 }).success).toBe(false);
  });

  it('derives the matching static type', () => {
    const parsed = LooseWebsite.parse(website);
    expectTypeOf(parsed.role).toBeString();
    expectTypeOf(LooseKey.parse(key).expiresAt).toEqualTypeOf<string | null | undefined>();
    expectTypeOf(parsed.settings.dropReferrer).toEqualTypeOf<boolean>();
  });
});
