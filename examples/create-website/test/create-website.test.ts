import { CspwatchInputError, isCspwatchError } from '@cspwatch/client';
import { type MockServer, startMockServer } from '@cspwatch/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebsite } from '../src/create-website';

describe('create-website without CSPWATCH_BASE_URL', () => {
  it('starts the bundled mock server, creates the website and prints the headers', async () => {
    const lines: string[] = [];
    const result = await createWebsite({
      env: {},
      print: (line) => lines.push(line),
      name: 'Shop',
      url: 'https://shop.example.com',
    });
    expect(result.usingMockServer).toBe(true);
    expect(result.website).toMatchObject({ name: 'Shop', url: 'https://shop.example.com' });
    expect(URL.canParse(result.website.endpointUrl)).toBe(true);
    expect(result.reportingEndpointsHeader).toBe(
      `Reporting-Endpoints: csp-endpoint="${result.website.endpointUrl}"`,
    );
    expect(lines[0]).toMatch(/^CSPWATCH_BASE_URL is not set: started the bundled mock server/);
    expect(lines).toContain(`  ${result.reportingEndpointsHeader}`);
    expect(lines).toContain('  Content-Security-Policy: <your policy>; report-to csp-endpoint');
  });
});

describe('create-website against CSPWATCH_BASE_URL', () => {
  let server: MockServer;
  const env = (token = server.tokens.admin) => ({
    CSPWATCH_BASE_URL: server.url,
    CSPWATCH_TOKEN: token,
    CSPWATCH_WORKSPACE_ID: server.workspaceIds.main,
  });

  beforeAll(async () => {
    server = await startMockServer({ websiteLimit: 2 });
  });
  afterAll(() => server.close());

  it('creates websites with distinct endpoints until the plan limit refuses one', async () => {
    const site = (name: string) =>
      createWebsite({ env: env(), print: () => {}, name, url: `https://${name}.example.com` });
    const first = await site('one');
    const second = await site('two');
    expect(first.usingMockServer).toBe(false);
    expect(first.website.endpointUrl).not.toBe(second.website.endpointUrl);
    const error = await site('three').catch((caught: unknown) => caught);
    expect(isCspwatchError(error) && error.code).toBe('website_limit_reached');
  });

  it('refuses an invalid URL before sending anything', async () => {
    const error = await createWebsite({
      env: env(),
      print: () => {},
      name: 'Bad',
      url: 'not a url',
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CspwatchInputError);
    expect((error as CspwatchInputError).fields.map((field) => field.path)).toContain('url');
  });

  it('surfaces a typed permission error for a member token, without the token in it', async () => {
    const error = await createWebsite({
      env: env(server.tokens.member),
      print: () => {},
      name: 'Blog',
      url: 'https://blog.example.com',
    }).catch((caught: unknown) => caught);
    expect(isCspwatchError(error) && error.code).toBe('forbidden_role');
    expect((error as Error).message).not.toContain(server.tokens.member);
  });
});
