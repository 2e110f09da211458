import { createServer, type Server } from 'node:net';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { createCspwatchClient } from '../src/create-client';
import { LIST_URL, printed, useLeakSuite } from './leak-fixtures';

/*
 * DESIGN.md, "Printed URLs carry no userinfo": a URL the caller gives (`baseUrl`) or a server
 * sends (a redirect's `location`, a problem's text, a body) shows neither its userinfo nor its
 * query values in an error (message, string form, `cause` chain, `util.inspect`) or a log entry.
 */

const PASSWORD = 's3cr3t-PASSWORD';
const TOKEN = 's3cr3t-TOKEN';
const SECRET_URL = `https://user:${PASSWORD}@evil.example:8443/next?token=${TOKEN}`;
const { server, logged, failure } = useLeakSuite('tok_url_secrets');

function expectNoSecret(error: unknown) {
  expect(error).toBeInstanceOf(Error);
  for (const text of [printed(error), JSON.stringify(logged)]) {
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(TOKEN);
  }
}

describe('URL secrets never show in what the client throws or logs', () => {
  it.each([
    `https://user:${PASSWORD}@api.example.com/v1?token=${TOKEN}`,
    `http://user:${PASSWORD}@api.example.com/v1`,
    `ftp://user:${PASSWORD}@api.example.com/?token=${TOKEN}`,
    `not a URL: user:${PASSWORD}@api.example.com ${SECRET_URL}`,
  ])('an invalid baseUrl: %s', (baseUrl) => {
    let error: unknown;
    try {
      createCspwatchClient({ baseUrl, token: 'tok' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'invalid_options' });
    expectNoSecret(error);
  });

  it('suggests the base URL without /v1 from its origin and path only', () => {
    expect(() =>
      createCspwatchClient({ baseUrl: `https://u:${PASSWORD}@api.example.com/x/v1`, token: 't' }),
    ).toThrow(/use https:\/\/api\.example\.com\/x\)/);
  });

  it('a redirect to a URL with secrets: message, location, headers and log', async () => {
    server.use(
      http.get(
        LIST_URL,
        () => new HttpResponse(null, { status: 302, headers: { location: SECRET_URL } }),
      ),
    );
    const error = await failure();
    expect(error).toMatchObject({
      code: 'redirect_not_followed',
      location: 'https://evil.example:8443/next?token=[redacted]',
    });
    expect((error as Error).message).toContain('redirect to https://evil.example:8443/next?token=');
    expectNoSecret(error);
    expect(logged[0]?.responseHeaders?.location).toBe(
      'https://evil.example:8443/next?token=[redacted]',
    );
  });

  it('a problem whose texts quote such a URL', async () => {
    const problem = {
      type: 'https://docs.example/problems/x',
      title: `Bad upstream ${SECRET_URL}`,
      status: 400,
      detail: `Could not reach ${SECRET_URL}`,
      code: 'validation_failed',
      errors: [{ path: 'url', message: `refused: ${SECRET_URL}` }],
    };
    server.use(
      http.get(LIST_URL, () =>
        HttpResponse.json(problem, {
          status: 400,
          headers: { 'content-type': 'application/problem+json' },
        }),
      ),
    );
    const error = await failure();
    expect(error).toMatchObject({
      code: 'validation_failed',
      detail: 'Could not reach https://evil.example:8443/next?token=[redacted]',
      errors: [
        { path: 'url', message: 'refused: https://evil.example:8443/next?token=[redacted]' },
      ],
    });
    expectNoSecret(error);
  });

  it('a body that is not the documented shape and quotes such a URL', async () => {
    server.use(http.get(LIST_URL, () => HttpResponse.json({ next: SECRET_URL, [SECRET_URL]: 1 })));
    const error = await failure();
    expect(error).toMatchObject({ code: 'response_validation_failed' });
    expectNoSecret(error);
  });

  it('a connection that fails, and a fetch whose error names such a URL', async () => {
    const closed: Server = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const refused = await failure({ baseUrl: `http://127.0.0.1:${port}` });
    expect(refused).toMatchObject({ code: 'connection_failed' });
    expectNoSecret(refused);
    const custom = await failure({
      fetch: async () => {
        throw new TypeError(`proxy ${SECRET_URL} refused the request`);
      },
    });
    expect(custom).toMatchObject({ code: 'connection_failed' });
    expect((custom as Error).message).not.toContain(PASSWORD);
    expect((custom as Error).message).not.toContain(TOKEN);
    // The cause is the caller's own fetch error, passed through untouched.
    expect((custom as Error).cause).toBeInstanceOf(TypeError);
  });
});
