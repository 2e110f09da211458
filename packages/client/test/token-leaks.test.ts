import { createServer, type Server } from 'node:net';
import { delay, HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeApiKey } from './fixtures';
import { LIST_URL, printed, useLeakSuite } from './leak-fixtures';

/*
 * Adversarial: the bearer token must not be reachable from anything the client hands back
 * or logs — messages, fields, headers, causes, `util.inspect` and JSON of every error —
 * even when the server echoes the token in every way it can.
 */

// Has the characters JSON escapes (`"`, `\`) and may escape (`/`).
const TOKEN = 'tok_"Echo\\Me/0123456789';
const { server, logged, failure } = useLeakSuite(async () => TOKEN);

function expectNoToken(value: unknown) {
  const shown = printed(value);
  expect(shown).not.toContain(TOKEN);
  expect(shown).not.toContain('Echo');
  expect(JSON.stringify(logged)).not.toContain('Echo');
}

describe('the token never leaks', () => {
  it('from an API error when the server echoes it in the body, escaped or not, and in headers', async () => {
    const unicodeEscaped = [...TOKEN]
      .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join('');
    server.use(
      http.get(LIST_URL, ({ request }) => {
        const echoed = request.headers.get('authorization') ?? '';
        const body = `{"title":"Bad ${JSON.stringify(TOKEN).slice(1, -1).replaceAll('/', '\\/')}","detail":"${unicodeEscaped}","code":"x","errors":[{"path":"${unicodeEscaped}","message":"${unicodeEscaped}"}],"raw":${JSON.stringify(echoed)}}`;
        return new HttpResponse(body, {
          status: 401,
          statusText: `No ${TOKEN}`,
          headers: {
            'content-type': 'application/problem+json',
            'x-request-id': TOKEN,
            'www-authenticate': `${echoed}, error="invalid_token"`,
          },
        });
      }),
    );
    const error = await failure();
    expect(error).toMatchObject({ status: 401, code: 'x' });
    expectNoToken(error);
  });

  it('from a response validation error', async () => {
    server.use(
      http.get(LIST_URL, () =>
        HttpResponse.json(
          { data: [makeApiKey(1, { name: TOKEN })], pagination: { hasMore: 'x', total: 1 } },
          { headers: { 'x-request-id': `req ${TOKEN}` } },
        ),
      ),
    );
    const error = await failure();
    expect(error).toMatchObject({ code: 'response_validation_failed' });
    expectNoToken(error);
  });

  it('from a timeout error (its cause must not keep the request)', async () => {
    server.use(
      http.get(LIST_URL, async () => {
        await delay(1_000);
        return HttpResponse.json({});
      }),
    );
    const error = await failure({ timeout: 20 });
    expect(error).toMatchObject({ code: 'timeout', scope: 'attempt' });
    expectNoToken(error);
  });

  it('from a connection error', async () => {
    let connections = 0;
    const resetting: Server = createServer((socket) => {
      connections++;
      socket.once('data', () => socket.destroy());
    });
    await new Promise<void>((resolve) => resetting.listen(0, '127.0.0.1', resolve));
    const address = resetting.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    try {
      const error = await failure({ baseUrl: `http://127.0.0.1:${address.port}` });
      expect(error).toMatchObject({ code: 'connection_failed' });
      expect(connections).toBe(1);
      expectNoToken(error);
    } finally {
      await new Promise((resolve) => resetting.close(resolve));
    }
  });

  it('from the logger, which also redacts cookies and API-key headers', async () => {
    server.use(http.get(LIST_URL, () => problemLike()));
    await failure({ headers: { cookie: 'session=Echo1', 'x-api-key': 'Echo2', 'x-ok': 'yes' } });
    expect(logged).toHaveLength(1);
    expect(logged[0]?.requestHeaders).toMatchObject({
      authorization: '[redacted]',
      cookie: '[redacted]',
      'x-api-key': '[redacted]',
      'x-ok': 'yes',
    });
    expectNoToken(logged);
  });
});

function problemLike() {
  return HttpResponse.json({ title: 'Nope', code: 'x' }, { status: 403 });
}
