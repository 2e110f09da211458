import { describe, expect, it } from 'vitest';
import { createMockService } from './core/app';
import { isMockServerError, MockServerError } from './errors';
import { resolveServiceOptions } from './options';

/** The documented defaults: every fault off. */
const FAULT_DEFAULTS = {
  latencyMs: 0,
  rateLimitEvery: 0,
  retryAfterSeconds: 1,
  serverErrorRate: 0,
  serverErrorStatus: 503,
  dropConnectionRate: 0,
};

describe('resolveServiceOptions', () => {
  it('fills in the defaults, with every fault off', () => {
    expect(resolveServiceOptions()).toEqual({
      seed: 1,
      apiKeyCount: 60,
      websiteLimit: 10,
      baseUrl: 'http://localhost',
      faults: FAULT_DEFAULTS,
      controlToken: undefined,
      dangerouslyAllowLoopbackWebhooks: false,
    });
  });

  it.each([
    [{ seed: -1 }, /seed/],
    [{ seed: 1.5 }, /seed/],
    [{ apiKeyCount: Number.NaN }, /apiKeyCount/],
    [{ websiteLimit: '10' as unknown as number }, /websiteLimit/],
    [{ baseUrl: 'ftp://x' }, /baseUrl/],
    [{ baseUrl: 'http://x/path' }, /baseUrl/],
    [{ faults: { latencyMs: -5 } }, /latencyMs/],
    [{ faults: { dropConnectionRate: 1.01 } }, /dropConnectionRate/],
    [{ faults: { serverErrorStatus: 404 } }, /serverErrorStatus/],
    [{ controlToken: 'short' }, /controlToken/],
    [{ controlToken: 'has spaces in the middle' }, /controlToken/],
    [
      { dangerouslyAllowLoopbackWebhooks: 'yes' as unknown as boolean },
      /dangerouslyAllowLoopbackWebhooks/,
    ],
  ])('refuses %j with invalid_options naming the option', (options, message) => {
    const error = (() => {
      try {
        resolveServiceOptions(options);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(isMockServerError(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'MockServerError',
      code: 'invalid_options',
      message: expect.stringMatching(message),
    });
  });

  it('recognises errors from another copy by their marker, and nothing else', () => {
    expect(isMockServerError(new MockServerError('unknown_channel', 'x'))).toBe(true);
    expect(isMockServerError({ [Symbol.for('@cspwatch/mock-server.MockServerError')]: true })).toBe(
      true,
    );
    expect(isMockServerError(new Error('x'))).toBe(false);
    expect(isMockServerError(null)).toBe(false);
  });
});

const refusal = (run: () => unknown): unknown => {
  try {
    run();
  } catch (caught) {
    return caught;
  }
  return undefined;
};

describe('fault options', () => {
  it('name every problem under faults., worded as every option, with a hint for a typo', () => {
    const error = refusal(() =>
      resolveServiceOptions({
        faults: {
          latencyMs: -5,
          serverErrorRate: '0.5' as unknown as number,
          serverErrorStatus: 404,
          rateLimitEvery: 2 ** 60,
          latncyMs: 1,
        } as never,
      }),
    );
    expect(error).toMatchObject({ code: 'invalid_options' });
    expect((error as MockServerError).issues).toEqual([
      {
        path: 'faults.latncyMs',
        code: 'unknown_option',
        message: 'unknown option (did you mean `latencyMs`?)',
      },
      {
        path: 'faults.latencyMs',
        code: 'out_of_range',
        message: 'must be an integer from 0 to 60000 (ms), got -5',
      },
      {
        path: 'faults.rateLimitEvery',
        code: 'out_of_range',
        message: `must be an integer from 0 to 1000000, got ${2 ** 60}`,
      },
      {
        path: 'faults.serverErrorRate',
        code: 'wrong_type',
        message: 'must be a number from 0 to 1, got a string',
      },
      {
        path: 'faults.serverErrorStatus',
        code: 'out_of_range',
        message: 'must be an integer from 500 to 599, got 404',
      },
    ]);
  });

  it('refuses faults that are not an object, and checks the other options too', () => {
    const error = refusal(() =>
      resolveServiceOptions({ faults: 5 as never, websiteLimit: 1.5 }),
    ) as MockServerError;
    expect(error.issues).toEqual([
      {
        path: 'websiteLimit',
        code: 'wrong_type',
        message: 'must be an integer from 0 to 100000, got 1.5',
      },
      {
        path: 'faults',
        code: 'not_an_object',
        message: 'must be an object { latencyMs, rateLimitEvery, … }, got 5',
      },
    ]);
  });

  it('fill in the defaults for the fields left out or undefined', () => {
    expect(
      resolveServiceOptions({ faults: { latencyMs: 5, serverErrorRate: undefined } }).faults,
    ).toEqual({ ...FAULT_DEFAULTS, latencyMs: 5 });
  });

  it('are the same rules for setFaults and PUT /_mock/faults', async () => {
    const service = createMockService();
    expect(() => service.setFaults({ dropConnectionRate: 2 })).toThrow(
      'Invalid options: faults.dropConnectionRate: must be a number from 0 to 1, got 2.',
    );
    const response = await service.fetch(
      new Request('http://localhost/_mock/faults', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ dropConnectionRate: 2, latencyMs: 7 }),
      }),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).errors).toEqual([
      { path: 'dropConnectionRate', message: 'must be a number from 0 to 1, got 2' },
    ]);
    const set = await service.fetch(
      new Request('http://localhost/_mock/faults', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ latencyMs: 7 }),
      }),
    );
    expect(await set.json()).toEqual({ ...FAULT_DEFAULTS, latencyMs: 7 });
  });
});

describe('inbox answer rules', () => {
  const secret = 'inbox-secret-1';

  it('are the same for inbox.createChannel, setResponse and the control API', async () => {
    const service = createMockService();
    expect(() => service.inbox.createChannel({ secret, response: { status: 700 } })).toThrow(
      'Invalid options: response.status: must be an integer from 200 to 599, got 700.',
    );
    expect(() =>
      service.inbox.createChannel({ secret, response: { hang: 'yes' as unknown as boolean } }),
    ).toThrow('response.hang: must be true or false, got a string');
    const { id } = service.inbox.createChannel({ secret });
    expect(() => service.inbox.setResponse(id, { location: 'not a url' })).toThrow(
      'response.location: must be an absolute URL without spaces or control characters',
    );
    const refused = await service.fetch(
      new Request(`http://localhost/_mock/inbox/channels/${id}/response`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 700 }),
      }),
    );
    expect(refused.status).toBe(400);
    expect((await refused.json()).errors).toEqual([
      { path: 'status', message: 'must be an integer from 200 to 599, got 700' },
    ]);
    const listed = await service.fetch(new Request('http://localhost/_mock/inbox/channels'));
    expect((await listed.json()).data).toEqual([
      expect.objectContaining({ id, response: { status: 200, hang: false } }),
    ]);
  });
});

describe('fixtures', () => {
  it('are the same for the same seed and differ for another', () => {
    const a = createMockService({ seed: 7, apiKeyCount: 5 });
    const b = createMockService({ seed: 7, apiKeyCount: 5 });
    const c = createMockService({ seed: 8, apiKeyCount: 5 });
    expect(a.store.snapshot()).toEqual(b.store.snapshot());
    expect(a.tokens).toEqual(b.tokens);
    expect(c.tokens.admin).not.toBe(a.tokens.admin);
    expect(a.store.snapshot().apiKeys).toHaveLength(5);
  });

  it('give distinct tokens and a cwk_ API key token', () => {
    const { tokens } = createMockService();
    expect(new Set(Object.values(tokens)).size).toBe(4);
    expect(tokens.apiKey).toMatch(/^cwk_/);
    expect(tokens.admin).not.toMatch(/^cwk_/);
  });

  it('adds a key with given fields, normalising createdAt, and refuses a bad date', () => {
    const service = createMockService({ apiKeyCount: 0 });
    const key = service.store.addApiKey(service.workspaceIds.main, {
      name: 'CI',
      createdAt: '2024-02-03T04:05:06Z',
      expiresAt: null,
    });
    expect(key).toMatchObject({
      name: 'CI',
      createdAt: '2024-02-03T04:05:06.000Z',
      updatedAt: '2024-02-03T04:05:06.000Z',
      expiresAt: null,
    });
    expect(service.store.snapshot().apiKeys).toEqual([key]);
    expect(() =>
      service.store.addApiKey(service.workspaceIds.main, { createdAt: 'yesterday' }),
    ).toThrow(expect.objectContaining({ code: 'invalid_options' }));
  });

  it('refuses to add a key to an unknown workspace', () => {
    expect(() => createMockService().store.addApiKey('ws_nope')).toThrow(
      expect.objectContaining({ code: 'unknown_workspace' }),
    );
  });
});
