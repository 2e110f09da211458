/**
 * The client and the mock service accept and refuse the same create-website bodies, with the
 * same field paths and messages: both run the contract's request schema. Unknown fields are
 * refused at every level (the client before sending, the service with 400).
 */
import { UNKNOWN_FIELD_MESSAGE } from '@cspwatch/contract';
import { type MockServer, startMockServer } from '@cspwatch/mock-server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCspwatchClient } from '../src/create-client';
import { CspwatchInputError } from '../src/index';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ websiteLimit: 10_000 });
});
afterAll(() => server.close());

type Verdict =
  | { accepted: true }
  | { accepted: false; errors: { path: string; message: string }[] };

async function clientVerdict(body: unknown): Promise<Verdict> {
  const client = createCspwatchClient({ baseUrl: server.url, token: server.service.tokens.admin });
  try {
    await client.websites.create(server.service.workspaceIds.main, body as never);
    return { accepted: true };
  } catch (error) {
    if (!(error instanceof CspwatchInputError)) throw error;
    // The service's field errors carry no issue code: compare what both say.
    const errors = error.fields.map(({ path, message }) => ({ path, message }));
    return { accepted: false, errors };
  }
}

async function serviceVerdict(body: unknown): Promise<Verdict> {
  const response = await fetch(
    `${server.url}/v1/workspaces/${server.service.workspaceIds.main}/websites`,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.service.tokens.admin}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    },
  );
  if (response.status === 201) return { accepted: true };
  expect(response.status).toBe(400);
  const problem = (await response.json()) as { errors: { path: string; message: string }[] };
  return { accepted: false, errors: problem.errors };
}

describe('create-website bodies: client and service agree', () => {
  it('refuses an unknown settings field on both sides, with the same message', async () => {
    const body = { name: 'Shop', url: 'https://shop.example.com', settings: { sampling: 0.5 } };
    const expected = {
      accepted: false,
      errors: [{ path: 'settings.sampling', message: UNKNOWN_FIELD_MESSAGE }],
    };
    expect(await clientVerdict(body)).toEqual(expected);
    expect(await serviceVerdict(body)).toEqual(expected);
  });

  it('gives the same verdict, paths and messages for any body (property)', async () => {
    const name = fc.oneof(
      fc.string({ minLength: 1, maxLength: 20 }),
      fc.constantFrom('', '   ', 'x'.repeat(256), '😀'.repeat(255)),
      fc.integer(),
    );
    const url = fc.oneof(
      fc.webUrl({ validSchemes: ['http', 'https'] }),
      fc.constantFrom(
        'ftp://a.example',
        'not a uri',
        '/relative',
        `https://a.example/${'a'.repeat(2040)}`,
      ),
      fc.constant(null),
    );
    const settings = fc.option(
      fc.oneof(
        fc.record(
          {
            allowedOrigins: fc.array(fc.constantFrom('https://a.example', 'https://a.example/', 7)),
            dropReferrer: fc.oneof(fc.boolean(), fc.constant('yes')),
            dropReportsFromExtensions: fc.boolean(),
            sampling: fc.double(),
          },
          { requiredKeys: [] },
        ),
        fc.constant([]),
      ),
      { nil: undefined },
    );
    const body = fc.record({ name, url, settings, extra: fc.constant(1) }, { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(body, async (candidate) => {
        const sent = JSON.parse(JSON.stringify(candidate));
        expect(await clientVerdict(sent)).toEqual(await serviceVerdict(sent));
      }),
      { numRuns: 80 },
    );
  });
});
