import { readFileSync } from 'node:fs';
import { OpenApiValidator } from '@cspwatch/contract/testing';

const mockDocument = JSON.parse(
  readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

/** What the conformance hook saw over a suite run. */
export interface ConformanceRecord {
  /** `METHOD /template status-key` of every documented response checked, e.g. `GET /v1/... 5XX`. */
  readonly seen: Set<string>;
  /** Puts back the fetch that was there before {@link checkResponsesAgainstDocument}. */
  restore(): void;
}

/**
 * Wraps the global `fetch` so that every response of a documented operation is checked
 * against the committed OpenAPI documents (Ajv, draft 2020-12): the service's for the REST
 * API, the mock's own (`openapi.json` of this package) for the control API, inbox and report
 * intake: status listed, headers, content type and body. A response that does not conform makes the `fetch` call reject
 * with every violation, so the test that made it fails and says why.
 */
export function checkResponsesAgainstDocument(): ConformanceRecord {
  const validator = new OpenApiValidator();
  const mock = new OpenApiValidator(mockDocument);
  const original = globalThis.fetch;
  const seen = new Set<string>();
  const wrapped: typeof fetch = async (input, init) => {
    const response = await original(input, init);
    const url = input instanceof Request ? input.url : String(input);
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const found = validator.operation(method, url);
    if (response.type === 'error') return response;
    if (!found) {
      if (!mock.operation(method, url)) return response;
      const body = response.status === 204 ? '' : await response.clone().text();
      const exchange = { method, url, status: response.status, headers: response.headers, body };
      const errors = mock.checkResponse(exchange);
      if (errors.length > 0)
        throw new Error(
          `The response does not match the mock's openapi.json:\n${errors.join('\n')}`,
        );
      return response;
    }
    const body = await response.clone().text();
    const errors = validator.checkResponse({
      method,
      url,
      status: response.status,
      headers: response.headers,
      body,
    });
    if (errors.length > 0)
      throw new Error(`The response does not match openapi.json:\n${errors.join('\n')}`);
    const status = String(response.status);
    const responses = found.operation.responses as Record<string, unknown>;
    seen.add(`${found.key} ${status in responses ? status : `${status[0]}XX`}`);
    return response;
  };
  globalThis.fetch = wrapped;
  return {
    seen,
    restore() {
      if (globalThis.fetch === wrapped) globalThis.fetch = original;
    },
  };
}

/** Every `METHOD /template status-key` the document lists, to compare with what a suite saw. */
export function documentedResponses(): string[] {
  const validator = new OpenApiValidator();
  return validator.responseKeys();
}
