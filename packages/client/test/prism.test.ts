/**
 * The client against Prism mocking the generated OpenAPI document over loopback, in static
 * (examples) and dynamic (`-d`, random schema-conforming data) modes. Any conforming response
 * the client refuses is a bug in the client or in the document.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrismProcess, startPrism } from '../../../test/helpers/processes';
import { budget } from '../../../test-budget';
import { createCspwatchClient } from '../src/create-client';
import {
  CspwatchApiError,
  CspwatchAuthenticationError,
  CspwatchBadRequestError,
  CspwatchNotFoundError,
  CspwatchPermissionError,
  CspwatchRateLimitError,
  CspwatchServerError,
} from '../src/index';

const documentPath = join(import.meta.dirname, '../openapi.json');

/** Starts `prism mock` of the client's document on 127.0.0.1; `-d` answers random conforming data. */
const startMock = (dynamic: boolean) =>
  startPrism(['mock', ...(dynamic ? ['-d'] : []), documentPath], {
    from: import.meta.url,
    startMs: 60_000,
  });

const ERRORS: Array<[number, typeof CspwatchApiError, 'list' | 'create' | 'both']> = [
  [400, CspwatchBadRequestError, 'both'],
  [401, CspwatchAuthenticationError, 'both'],
  [403, CspwatchPermissionError, 'both'],
  [404, CspwatchNotFoundError, 'both'],
  [413, CspwatchApiError, 'create'],
  [415, CspwatchApiError, 'create'],
  [429, CspwatchRateLimitError, 'both'],
  [500, CspwatchServerError, 'both'],
  [503, CspwatchServerError, 'both'],
];

describe.each([
  ['static', false],
  ['dynamic', true],
])('the client against Prism (%s mode)', (_mode, dynamic) => {
  let prism: PrismProcess | undefined;
  beforeAll(async () => {
    prism = await startMock(dynamic);
  }, budget(70_000));
  afterAll(() => prism?.close());
  const client = () =>
    createCspwatchClient({ baseUrl: prism!.baseUrl, token: 'tok_prism', maxRetries: 0 });
  const input = { name: 'Shop', url: 'https://shop.example.com' };

  it('lists API keys: the first page parses', async () => {
    for (let round = 0; round < 5; round++) {
      const page = await client().apiKeys.list('ws_1', { limit: 2, q: 'ci' }).firstPage();
      expect(Array.isArray(page.data)).toBe(true);
      expect(typeof page.pagination.hasMore).toBe('boolean');
    }
  });

  it('creates a website: the 201 body parses', async () => {
    for (let round = 0; round < 5; round++) {
      const website = await client().websites.create('ws_1', {
        ...input,
        settings: { allowedOrigins: ['https://shop.example.com'], dropReferrer: true },
      });
      expect(typeof website.endpointUrl).toBe('string');
    }
  });

  it.each(ERRORS)(
    'maps %i (Prefer: code) to its error class',
    async (status, errorClass, where) => {
      const headers = { prefer: `code=${status}` };
      const calls = [];
      if (where !== 'create') calls.push(client().apiKeys.list('ws_1', { headers }).firstPage());
      if (where !== 'list') calls.push(client().websites.create('ws_1', input, { headers }));
      for (const call of calls) {
        const error = await call.catch((e: unknown) => e);
        expect(error).toBeInstanceOf(errorClass);
        expect((error as CspwatchApiError).status).toBe(status);
      }
    },
  );
});
