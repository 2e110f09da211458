import { isCspwatchError } from '@cspwatch/client';
import { type MockServer, startMockServer } from '@cspwatch/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listApiKeys } from '../src/list-api-keys';

function capture() {
  const lines: string[] = [];
  return { lines, print: (line: string) => lines.push(line) };
}

describe('list-api-keys without CSPWATCH_BASE_URL', () => {
  it('starts the bundled mock server and lists its 60 seeded keys over 2 pages of 50', async () => {
    const out = capture();
    const result = await listApiKeys({ env: {}, print: out.print });
    expect(result.usingMockServer).toBe(true);
    expect(result.keys).toHaveLength(60);
    expect(new Set(result.keys.map((key) => key.id)).size).toBe(60);
    expect(result).toMatchObject({ pages: 2, total: 60 });
    expect(out.lines[0]).toMatch(/^CSPWATCH_BASE_URL is not set: started the bundled mock server/);
    expect(out.lines.at(-1)).toBe('60 of 60 keys, fetched in 2 pages.');
  });

  it('follows the cursor across smaller pages', async () => {
    const result = await listApiKeys({ env: {}, print: () => {}, limit: 7 });
    expect(result.pages).toBe(Math.ceil(60 / 7));
    expect(new Set(result.keys.map((key) => key.id)).size).toBe(60);
  });
});

describe('list-api-keys against CSPWATCH_BASE_URL', () => {
  let server: MockServer;
  const env = () => ({
    CSPWATCH_BASE_URL: server.url,
    CSPWATCH_TOKEN: server.tokens.admin,
    CSPWATCH_WORKSPACE_ID: server.workspaceIds.main,
  });

  beforeAll(async () => {
    server = await startMockServer({ apiKeyCount: 12, seed: 7 });
  });
  afterAll(() => server.close());

  it('uses the given server, token and workspace', async () => {
    const out = capture();
    const result = await listApiKeys({ env: env(), print: out.print, limit: 5 });
    expect(result).toMatchObject({ usingMockServer: false, pages: 3, total: 12 });
    expect(out.lines.join('\n')).not.toContain('mock server');
    // header row + one row per key + the count line
    expect(out.lines).toHaveLength(1 + 12 + 1);
    expect(out.lines[0]).toMatch(/^NAME\s+PREFIX\s+CREATED BY\s+LAST USED\s+EXPIRES$/);
    for (const key of result.keys) {
      expect(out.lines.some((line) => line.startsWith(key.name) && line.includes(key.prefix))).toBe(
        true,
      );
    }
  });

  it('passes q to the server and reports the filtered total', async () => {
    const all = await listApiKeys({ env: env(), print: () => {} });
    const word = all.keys[0]!.name.split(' ')[0]!;
    const filtered = await listApiKeys({ env: env(), print: () => {}, q: word });
    const expected = all.keys.filter((key) => key.name.toLowerCase().includes(word.toLowerCase()));
    expect(filtered.keys.map((key) => key.id).sort()).toEqual(expected.map((key) => key.id).sort());
    expect(filtered.total).toBe(expected.length);
  });

  it('says which variables are missing when only CSPWATCH_BASE_URL is set', async () => {
    await expect(
      listApiKeys({ env: { CSPWATCH_BASE_URL: server.url }, print: () => {} }),
    ).rejects.toThrow(
      'CSPWATCH_BASE_URL is set, so CSPWATCH_TOKEN and CSPWATCH_WORKSPACE_ID must be set too.',
    );
  });

  it('surfaces a typed permission error for a member token, without the token in it', async () => {
    const error = await listApiKeys({
      env: { ...env(), CSPWATCH_TOKEN: server.tokens.member },
      print: () => {},
    }).catch((caught: unknown) => caught);
    expect(isCspwatchError(error) && error.code).toBe('forbidden_role');
    expect(String((error as Error).message)).not.toContain(server.tokens.member);
  });
});
