import { describe, expectTypeOf, it } from 'vitest';
import {
  type ApiKey,
  type ApiKeyPage,
  type CreateWebsiteInput,
  CspwatchApiError,
  type CspwatchClient,
  type CspwatchErrorCode,
  CspwatchRateLimitError,
  createCspwatchClient,
  isCspwatchError,
  type PageIterable,
  type Website,
} from '../src/index';

declare const client: CspwatchClient;

describe('public types', () => {
  it('createCspwatchClient takes a string or (async) token function', () => {
    expectTypeOf(
      createCspwatchClient({ baseUrl: 'https://a', token: 't' }),
    ).toEqualTypeOf<CspwatchClient>();
    createCspwatchClient({
      token: async ({ forceRefresh, signal }) => (forceRefresh && signal ? 'a' : 'b'),
    });
    createCspwatchClient({ token: () => 'sync' });
    // @ts-expect-error a token must be a string or a function
    createCspwatchClient({ token: 42 });
    // @ts-expect-error maxRetries is a number
    createCspwatchClient({ token: 't', maxRetries: '2' });
  });

  it('list returns an async iterable of ApiKey with page helpers', () => {
    const list = client.apiKeys.list('ws', {
      limit: 10,
      q: 'ci',
      cursor: 'c',
      signal: new AbortController().signal,
    });
    expectTypeOf(list).toEqualTypeOf<PageIterable<ApiKey, ApiKeyPage>>();
    expectTypeOf(list).toMatchTypeOf<AsyncIterable<ApiKey>>();
    expectTypeOf(list.firstPage()).resolves.toEqualTypeOf<ApiKeyPage>();
    expectTypeOf(list.toArray({ max: 5 })).resolves.toEqualTypeOf<ApiKey[]>();
    expectTypeOf<ApiKeyPage['pagination']['total']>().toEqualTypeOf<number>();
    expectTypeOf<ApiKeyPage['pagination']['nextCursor']>().toEqualTypeOf<
      string | null | undefined
    >();
    // @ts-expect-error limit is a number
    client.apiKeys.list('ws', { limit: '10' });
  });

  it('ApiKey and Website are inferred from the schemas and stay open to new fields', () => {
    expectTypeOf<ApiKey['id']>().toEqualTypeOf<string>();
    expectTypeOf<ApiKey['expiresAt']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<ApiKey['lastUsedAt']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<ApiKey['createdByUser']['email']>().toEqualTypeOf<string>();
    expectTypeOf<ApiKey['someFutureField']>().toEqualTypeOf<unknown>();
    expectTypeOf<Website['role']>().toEqualTypeOf<string>();
    expectTypeOf<Website['endpointUrl']>().toEqualTypeOf<string>();
    expectTypeOf<Website['settings']['dropReferrer']>().toEqualTypeOf<boolean>();
  });

  it('websites.create takes the input and resolves to a Website', () => {
    expectTypeOf(
      client.websites.create('ws', { name: 'a', url: 'https://a' }),
    ).resolves.toEqualTypeOf<Website>();
    expectTypeOf<CreateWebsiteInput['settings']>().toMatchTypeOf<
      { dropReferrer?: boolean | undefined } | undefined
    >();
    // @ts-expect-error url is required
    client.websites.create('ws', { name: 'a' });
  });

  it('errors narrow with instanceof and the guard', () => {
    const error: unknown = new Error('x');
    if (isCspwatchError(error)) expectTypeOf(error.code).toEqualTypeOf<CspwatchErrorCode>();
    if (error instanceof CspwatchRateLimitError) {
      expectTypeOf(error.retryAfterMs).toEqualTypeOf<number | undefined>();
      expectTypeOf(error.name).toEqualTypeOf<'CspwatchRateLimitError'>();
    }
    if (error instanceof CspwatchApiError) {
      expectTypeOf(error.status).toEqualTypeOf<number>();
      expectTypeOf(error.requestId).toEqualTypeOf<string | undefined>();
      expectTypeOf(error.headers).toEqualTypeOf<Headers>();
    }
  });
});
