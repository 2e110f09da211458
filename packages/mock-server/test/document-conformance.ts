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
 * API, the mock's own (this package's `openapi.json`) for the control API, inbox and report
 * intake: status listed, headers, content type and body. A response that does not conform
 * makes the `fetch` call reject with every violation, so the test that made it fails and says why.
 */
export function checkResponsesAgainstDocument(): ConformanceRecord {
  const documents = [
    { name: 'openapi.json', validator: new OpenApiValidator() },
    { name: "the mock's openapi.json", validator: new OpenApiValidator(mockDocument) },
  ];
  const original = globalThis.fetch;
  const seen = new Set<string>();
  const wrapped: typeof fetch = async (input, init) => {
    const response = await original(input, init);
    const url = input instanceof Request ? input.url : String(input);
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    if (response.type === 'error') return response;
    for (const { name, validator } of documents) {
      const found = validator.operation(method, url);
      if (!found) continue;
      const body = await response.clone().text();
      const { status, headers } = response;
      const errors = validator.checkResponse({ method, url, status, headers, body });
      if (errors.length > 0)
        throw new Error(`The response does not match ${name}:\n${errors.join('\n')}`);
      const key = String(status);
      const responses = found.operation.responses as Record<string, unknown>;
      seen.add(`${found.key} ${key in responses ? key : `${key[0]}XX`}`);
      break;
    }
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

/** Every `METHOD /template status-key` the service's document lists, to compare with what a suite saw. */
export function documentedResponses(): string[] {
  return new OpenApiValidator().responseKeys();
}

/** Every success (`2xx`) the mock's own document lists, as `METHOD /template status-key`. */
export function documentedMockSuccesses(): string[] {
  return new OpenApiValidator(mockDocument).responseKeys().filter((key) => / 2/.test(key));
}
