import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CursorCodec } from './cursor';

const position = { workspaceId: 'ws_a', q: 'prod', createdAtMs: 1_700_000_000_000, id: 'key_1' };

describe('CursorCodec', () => {
  it('decodes its own cursor for the same workspace and q', async () => {
    const codec = new CursorCodec();
    const cursor = await codec.encode(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(await codec.decode(cursor, 'ws_a', 'prod')).toEqual(position);
  });

  it('decodes its own cursor for the longest q, even when every character is JSON-escaped', async () => {
    const codec = new CursorCodec();
    for (const q of ['\u0001'.repeat(255), '😀'.repeat(255), '"'.repeat(255)]) {
      const cursor = await codec.encode({ ...position, q });
      expect(await codec.decode(cursor, 'ws_a', q)).toEqual({ ...position, q });
    }
  });

  it('refuses a cursor for another workspace, another q, or from another codec', async () => {
    const codec = new CursorCodec();
    const cursor = await codec.encode(position);
    expect(await codec.decode(cursor, 'ws_b', 'prod')).toBeUndefined();
    expect(await codec.decode(cursor, 'ws_a', null)).toBeUndefined();
    expect(await codec.decode(cursor, 'ws_a', 'PROD')).toBeUndefined();
    expect(await new CursorCodec().decode(cursor, 'ws_a', 'prod')).toBeUndefined();
  });

  it('refuses any single-character change of a valid cursor', async () => {
    const codec = new CursorCodec();
    const cursor = await codec.encode(position);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: cursor.length - 2 }),
        fc.constantFrom(...alphabet),
        async (index, char) => {
          fc.pre(cursor[index] !== char);
          const changed = cursor.slice(0, index) + char + cursor.slice(index + 1);
          expect(await codec.decode(changed, 'ws_a', 'prod')).toBeUndefined();
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never throws on arbitrary input', async () => {
    const codec = new CursorCodec();
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), async (text) => {
        expect(await codec.decode(text, 'ws_a', null)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
    expect(await codec.decode('A'.repeat(5000), 'ws_a', null)).toBeUndefined();
  });
});
