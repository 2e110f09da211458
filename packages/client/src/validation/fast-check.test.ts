import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeApiKey, makeWebsite } from '../../test/fixtures';
import { ApiKeyPageSchema, WebsiteSchema } from '../schemas';
import { fastCheck } from './fast-check';

/** Values at the edges of the response rules: integers of any size and sign, near misses. */
const edgeValue = fc.constantFrom(
  -1,
  0,
  1.5,
  -0,
  1e21,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  '1',
  null,
  'owner',
);

/** A JSON value that is a valid key, page or website with one field replaced by `value`. */
const mutated = (base: Record<string, unknown>) =>
  fc
    .tuple(fc.constantFrom(...Object.keys(base), 'extra'), fc.oneof(fc.jsonValue(), edgeValue))
    .map(([field, value]) => ({
      ...base,
      [field]: value,
    }));

describe('fastCheck', () => {
  it('agrees with zod on valid and broken keys, pages and websites, and returns the same data', () => {
    const page = (data: unknown[], pagination: unknown) => ({ data, pagination });
    fc.assert(
      fc.property(
        fc.oneof(
          mutated(makeApiKey(1)).map((key) =>
            page([makeApiKey(0), key], { hasMore: false, total: 2 }),
          ),
          mutated({ nextCursor: 'c', hasMore: true, total: 3 }).map((pagination) =>
            page([], pagination),
          ),
          mutated(makeApiKey(2).createdByUser).map((user) =>
            page([makeApiKey(2, { createdByUser: user })], { hasMore: false, total: 1 }),
          ),
          fc.jsonValue(),
        ),
        (value) => {
          const zod = ApiKeyPageSchema.safeParse(value);
          expect(fastCheck(ApiKeyPageSchema)(value)).toBe(zod.success);
          if (zod.success) expect(value).toEqual(zod.data);
        },
      ),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(mutated(makeWebsite()), (value) => {
        expect(fastCheck(WebsiteSchema)(value)).toBe(WebsiteSchema.safeParse(value).success);
      }),
      { numRuns: 300 },
    );
  });
});
