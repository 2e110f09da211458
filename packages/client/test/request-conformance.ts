/**
 * Vitest setup file of the client project: every request the client sends in a test (its
 * user-agent names the SDK; a test's own raw fetch calls are left alone), to a path the
 * OpenAPI document has, is checked against the committed document (Ajv, draft 2020)
 * — parameters, unknown query names, bearer auth and body. It wraps the global `fetch` in each
 * test (after msw, if a file uses it, has installed its own) and fails the test that sent a
 * request the document does not allow, listing why.
 */
import { bodyText, OpenApiValidator } from '@cspwatch/contract/testing';
import { afterEach, beforeEach, expect } from 'vitest';
import { USER_AGENT } from '../src/options/client-options';

const validator = new OpenApiValidator();
let violations: string[] = [];
let installed: { wrapped: typeof fetch; original: typeof fetch } | undefined;

beforeEach(() => {
  violations = [];
  const original = globalThis.fetch;
  const wrapped: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const fromClient = request.headers.get('user-agent')?.includes(USER_AGENT) ?? false;
    if (fromClient && validator.operation(request.method, request.url)) {
      const errors = validator.checkRequest({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: await bodyText(request),
      });
      violations.push(...errors);
    }
    return original(request);
  };
  globalThis.fetch = wrapped;
  installed = { wrapped, original };
});

afterEach(() => {
  if (installed && globalThis.fetch === installed.wrapped) globalThis.fetch = installed.original;
  installed = undefined;
  expect(violations, 'requests that openapi.json does not allow').toEqual([]);
});
