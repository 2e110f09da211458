import { describe, expect, it } from 'vitest';
import type { Page, SuiteContext } from './context';

/** Listing API keys: fields, paging, cursors, q, limits (access rules: api-keys-access.ts). */
export function apiKeysTests(s: SuiteContext): void {
  const { tokens, main, list, expectProblem, walk } = s;
  describe('GET /v1/workspaces/{workspaceId}/api-keys', () => {
    it('returns the first 50 keys newest first, with total and a cursor', async () => {
      const response = await list();
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      const page = (await response.json()) as Page;
      expect(page.data).toHaveLength(50);
      expect(page.pagination).toMatchObject({ hasMore: true, total: 60 });
      expect(page.pagination.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
      const times = page.data.map((key) => Date.parse(key.createdAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      const expected = s.harness.service.store.snapshot().apiKeys.slice(0, 50);
      expect(page.data).toEqual(expected);
    });

    it('returns every field of section 2.1 and never a secret', async () => {
      const text = await (await list('?limit=200')).text();
      expect(text).not.toContain(tokens().apiKey);
      const page = JSON.parse(text) as Page;
      for (const key of page.data) {
        expect(Object.keys(key).sort()).toEqual(
          [
            'allowedIps',
            'createdAt',
            'createdBy',
            'createdByUser',
            'expiresAt',
            'id',
            'lastUsedAt',
            'name',
            'prefix',
            'updatedAt',
            'workspaceId',
          ].sort(),
        );
        expect(key.workspaceId).toBe(main());
        expect(key.createdByUser.id).toBe(key.createdBy);
        expect(Object.keys(key.createdByUser).sort()).toEqual([
          'email',
          'firstName',
          'id',
          'lastName',
          'picture',
        ]);
      }
      expect(page.data.some((key) => key.expiresAt === null)).toBe(true);
      expect(page.data.some((key) => key.lastUsedAt === null)).toBe(true);
      expect(
        page.data.some((key) => key.expiresAt !== null && !Number.isNaN(Date.parse(key.expiresAt))),
      ).toBe(true);
    });

    it('pages through every key exactly once with nextCursor', async () => {
      const seen = await walk('', 7);
      expect(seen.map((key) => key.id)).toEqual(
        s.harness.service.store.snapshot().apiKeys.map((key) => key.id),
      );
    });

    it('accepts limit 1 and 200, and refuses other limits listing the field', async () => {
      expect(((await (await list('?limit=1')).json()) as Page).data).toHaveLength(1);
      expect(((await (await list('?limit=200')).json()) as Page).data).toHaveLength(60);
      for (const limit of ['0', '201', '1.5', '-1', 'abc', '', '1e2', ' 5', '0x10']) {
        const body = await expectProblem(
          await list(`?limit=${encodeURIComponent(limit)}`),
          400,
          'validation_failed',
        );
        expect(body.errors).toEqual([
          { path: 'limit', message: expect.stringContaining('1 to 200') },
        ]);
      }
    });

    it('filters by q, case-insensitive substring of the name, and counts total', async () => {
      const store = s.harness.service.store;
      store.addApiKey(main(), { name: 'Zebra Exporter' });
      store.addApiKey(main(), { name: 'old zebra sync' });
      store.addApiKey(main(), { name: 'ZEBRA' });
      const page = (await (await list('?q=zEbRa&limit=2')).json()) as Page;
      expect(page.pagination).toMatchObject({ total: 3, hasMore: true });
      const all = await walk('&q=zEbRa', 2);
      expect(all.map((key) => key.name).sort()).toEqual([
        'ZEBRA',
        'Zebra Exporter',
        'old zebra sync',
      ]);
      const expectedProd = store
        .snapshot()
        .apiKeys.filter((key) => key.name.toLowerCase().includes('prod')).length;
      expect(((await (await list('?q=PROD')).json()) as Page).pagination.total).toBe(expectedProd);
      expect((await (await list('?q=no-such-name')).json()) as Page).toEqual({
        data: [],
        pagination: { nextCursor: null, hasMore: false, total: 0 },
      });
    });

    it('accepts q of 255 characters and refuses 256, with limit errors listed too', async () => {
      expect((await list(`?q=${'é'.repeat(255)}`)).status).toBe(200);
      const body = await expectProblem(
        await list(`?q=${'a'.repeat(256)}&limit=0`),
        400,
        'validation_failed',
      );
      expect(body.errors?.map((error) => error.path)).toEqual(['limit', 'q']);
    });

    it('refuses a parameter given twice', async () => {
      const body = await expectProblem(await list('?limit=5&limit=6'), 400, 'validation_failed');
      expect(body.errors?.[0]?.path).toBe('limit');
    });

    it('refuses tampered, truncated, re-encoded and foreign-q cursors with invalid_cursor', async () => {
      const first = (await (await list('?limit=5')).json()) as Page;
      const cursor = first.pagination.nextCursor!;
      const flipped = cursor.slice(0, 10) + (cursor[10] === 'A' ? 'B' : 'A') + cursor.slice(11);
      const forged = Buffer.from(JSON.stringify([1, main(), null, Date.now(), 'key_x'])).toString(
        'base64url',
      );
      for (const bad of [
        flipped,
        cursor.slice(0, -4),
        `${cursor}AA`,
        forged,
        'not a cursor!',
        'AAAA',
      ]) {
        const body = await expectProblem(
          await list(`?limit=5&cursor=${encodeURIComponent(bad)}`),
          400,
          'invalid_cursor',
        );
        expect(body.errors?.[0]?.path).toBe('cursor');
      }
      await expectProblem(await list(`?limit=5&q=prod&cursor=${cursor}`), 400, 'invalid_cursor');
      expect((await list(`?limit=9&cursor=${cursor}`)).status).toBe(200);
    });

    it('the same request answers from the current state: a key added or deleted in between shows', async () => {
      const first = await (await list('?limit=3')).json();
      const again = await list('?limit=3');
      expect(again.headers.get('x-request-id')).toMatch(/^req_/);
      expect(await again.json()).toEqual(first);
      const added = s.harness.service.store.addApiKey(main(), { name: 'Fresh key' });
      const withNew = await (await list('?limit=3')).json();
      expect(withNew.data[0].id).toBe(added.id);
      expect(withNew.pagination.total).toBe(first.pagination.total + 1);
      s.harness.service.store.deleteApiKey(added.id);
      expect(await (await list('?limit=3')).json()).toEqual(first);
      s.harness.service.reset();
      expect(await (await list('?limit=3')).json()).toEqual(first);
    });
  });
}
