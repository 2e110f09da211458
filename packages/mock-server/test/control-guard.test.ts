import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../src/index';
import { isLoopbackHost } from '../src/transports/node-server';

describe('control API guard (real HTTP)', () => {
  const controlToken = 'ctl-0123456789abcdef-secret';
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ controlToken, apiKeyCount: 2 });
  });
  afterAll(() => server.close());

  it('answers 401 problem+json without the token, or with a wrong one, and never echoes it', async () => {
    const missing = await fetch(`${server.url}/_mock/state`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    expect(missing.headers.get('www-authenticate')).toContain('Bearer');
    expect(await missing.json()).toMatchObject({ code: 'missing_control_token', status: 401 });
    for (const wrong of [
      `${controlToken}x`,
      controlToken.slice(0, -1),
      'a',
      controlToken.toUpperCase(),
    ]) {
      const response = await fetch(`${server.url}/_mock/reset`, {
        method: 'POST',
        headers: { authorization: `Bearer ${wrong}` },
      });
      const text = await response.text();
      expect(response.status).toBe(401);
      expect(JSON.parse(text).code).toBe('invalid_control_token');
      expect(text).not.toContain(controlToken.slice(4, 20));
    }
    const page = await fetch(`${server.url}/_mock/`);
    expect(page.status).toBe(401);
    expect(await page.text()).not.toMatch(/<html/i);
  });

  it('lets the right token in, as a bearer header or ?token= (the page in a browser)', async () => {
    const state = await fetch(`${server.url}/_mock/state`, {
      headers: { authorization: `Bearer ${controlToken}` },
    });
    expect(state.status).toBe(200);
    const page = await fetch(`${server.url}/_mock/?token=${encodeURIComponent(controlToken)}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('leaves the REST API, the report endpoints and the inbox alone', async () => {
    const response = await fetch(
      `${server.url}/v1/workspaces/${server.workspaceIds.main}/api-keys`,
      { headers: { authorization: `Bearer ${server.tokens.admin}` } },
    );
    expect(response.status).toBe(200);
    expect(server.controlToken).toBe(controlToken);
  });

  it('needs no token on loopback by default', async () => {
    const open = await startMockServer({ host: '::1' });
    try {
      expect(open.controlToken).toBeUndefined();
      expect((await fetch(`${open.url}/_mock/state`)).status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it('knows loopback addresses from the others (beyond loopback, a random token is made)', () => {
    for (const host of [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '[::1]',
      'localhost',
      'LOCALHOST',
      '::ffff:127.0.0.1',
    ])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of [
      '0.0.0.0',
      '::',
      '10.0.0.1',
      '192.168.1.10',
      'example.com',
      '128.0.0.1',
      '127.0.0.1.example.com',
    ])
      expect(isLoopbackHost(host)).toBe(false);
  });
});
