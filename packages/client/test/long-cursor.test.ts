import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CspwatchInputError, createCspwatchClient } from '../src/index';
import { makeApiKey } from './fixtures';

/*
 * Over real loopback HTTP: a cursor is opaque (spec 4.1: "the nextCursor of the previous
 * page"), so whatever length the service gives it, the client follows it and takes it back
 * to resume a listing later.
 */

const LONG_CURSOR = `c_${'x'.repeat(10_000)}`;
const cursorsSeen: (string | null)[] = [];
let server: Server;
let baseUrl = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    const cursor = new URL(request.url ?? '/', 'http://x').searchParams.get('cursor');
    cursorsSeen.push(cursor);
    const first = cursor === null;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        data: [makeApiKey(first ? 0 : 1)],
        pagination: { nextCursor: first ? LONG_CURSOR : null, hasMore: first, total: 2 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseUrl = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const client = () => createCspwatchClient({ baseUrl, token: 'tok_cursor', random: () => 0 });

describe('a cursor of any length the service issues', () => {
  it('is followed while iterating, and taken back as `cursor` to resume', async () => {
    const first = await client().apiKeys.list('ws_1').firstPage();
    expect(first.pagination.nextCursor).toBe(LONG_CURSOR);
    const all = await client().apiKeys.list('ws_1').toArray();
    expect(all.map((key) => key.id)).toEqual(['key_0', 'key_1']);
    const stored = first.pagination.nextCursor!;
    const resumed = await client().apiKeys.list('ws_1', { cursor: stored }).toArray();
    expect(resumed.map((key) => key.id)).toEqual(['key_1']);
    expect(cursorsSeen).toEqual([null, null, LONG_CURSOR, LONG_CURSOR]);
  });

  it('is still refused when empty, before any request', () => {
    expect(() => client().apiKeys.list('ws_1', { cursor: '' })).toThrow(CspwatchInputError);
    try {
      client().apiKeys.list('ws_1', { cursor: '' });
    } catch (error) {
      expect((error as CspwatchInputError).fields).toEqual([
        expect.objectContaining({ path: 'cursor', message: expect.stringMatching(/empty/) }),
      ]);
    }
  });
});
